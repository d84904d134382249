/** The Sites that cannot take configuration or servers: not Connected, or cordoned. */

import type { SiteReading } from './types.js';

/** "site ni-prod-fra-02: Error, connection lost" for each Site in trouble. */
export function problemSites(sites: readonly SiteReading[]): string[] {
  return sites
    .filter((s) => (s.status?.state ?? 'Unknown') !== 'Connected' || s.spec?.cordoned === true)
    .map((s) => {
      const words = [
        s.status?.state ?? 'Unknown',
        s.spec?.cordoned ? 'cordoned' : '',
        s.status?.reason ?? '',
      ];
      return `site ${s.metadata.name}: ${words.filter(Boolean).join(', ')}`;
    });
}
