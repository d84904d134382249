/**
 * The Sites behind Degraded fleets, named in their alerts (the fleet state
 * model's `sitesBehind`, `describeSite`): one Site list and one Region list
 * per poll, only while a fleet is Degraded, never a read per fleet. A refusal
 * (403/404) is said in the alert, and the poll goes on.
 */

import { sitesNote } from '../changes/fleet-sites.js';
import { describeSite, sitesBehind } from '../changes/fleet-state.js';
import { ApiError } from '../gamefabric/errors.js';
import type { Observation } from './observe.js';
import type { WatchSource } from './types.js';

/** `bad` with the Sites behind each Degraded fleet in its detail. */
export async function withSites(
  source: WatchSource,
  env: string,
  bad: Observation[],
): Promise<Observation[]> {
  if (!source.listSites || !bad.some((o) => o.siteRegions)) return bad;
  let sites: Awaited<ReturnType<NonNullable<WatchSource['listSites']>>>;
  let regions: Awaited<ReturnType<WatchSource['listRegions']>> | undefined;
  try {
    sites = await source.listSites();
    regions = await source.listRegions(env).catch((err: unknown) => {
      // Without the Regions every problem Site is named (the locations are not known).
      if (err instanceof ApiError && (err.status === 403 || err.status === 404)) return undefined;
      throw err;
    });
  } catch (err) {
    if (!(err instanceof ApiError && (err.status === 403 || err.status === 404))) throw err;
    const note = sitesNote({ kind: 'refused', status: err.status });
    return bad.map((o) => (o.siteRegions ? { ...o, detail: note } : o));
  }
  const locationsOf = (names: readonly string[]): string[] | undefined => {
    if (!regions) return undefined;
    const wanted = new Set(names);
    return regions
      .filter((r) => wanted.has(r.metadata.name))
      .flatMap((r) => r.spec.types.flatMap((t) => t.locations));
  };
  return bad.map((o) => {
    if (!o.siteRegions) return o;
    const problems = sitesBehind(sites, locationsOf(o.siteRegions));
    const detail = problems.length
      ? problems.map(describeSite).join('; ')
      : sitesNote({ kind: 'read', problems });
    return detail ? { ...o, detail } : o;
  });
}
