/**
 * The Sites behind a Degraded fleet: the Sites of the Locations its regions
 * use that are not Connected or are cordoned (docs glossary "Degraded",
 * `architecture/regions-sites-and-locations.md`). Reading Sites or Regions may
 * be refused: that is said, and the fleet is still shown.
 */
import type { Armada, ArmadaSet } from '../api-shapes/armada-resources.js';
import type { GameFabricClient } from '../gamefabric/client.js';
import { ApiError } from '../gamefabric/errors.js';
import { type SiteProblem, sitesBehind } from './fleet-state.js';

type Fleet = Armada | ArmadaSet;

/** What is known of the Sites behind a fleet: the problem ones, or why they could not be read. */
export type SitesReading = { kind: 'read'; problems: SiteProblem[] } | { kind: 'refused'; status: number };

function regionsOf(fleet: Fleet): string[] {
  const spec = fleet.spec as { region?: unknown; armadas?: { region: string }[] };
  if (typeof spec.region === 'string') return [spec.region];
  return (spec.armadas ?? []).map((a) => a.region);
}

/** The Locations of the fleet's regions, or undefined when a Region cannot be read. */
async function locationsOf(
  client: GameFabricClient,
  env: string,
  fleet: Fleet,
): Promise<string[] | undefined> {
  const out = new Set<string>();
  for (const name of regionsOf(fleet)) {
    try {
      const region = await client.getRegion(env, name);
      for (const t of region.spec.types) for (const l of t.locations) out.add(l);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 403 || err.status === 404)) return undefined;
      throw err;
    }
  }
  return [...out];
}

/** Reads the Sites behind `fleet`; a refusal (403/404) is a reading, not an error. */
export async function readSitesBehind(
  client: GameFabricClient,
  env: string,
  fleet: Fleet,
): Promise<SitesReading> {
  try {
    const sites = await client.listSites();
    const locations = await locationsOf(client, env, fleet);
    return { kind: 'read', problems: sitesBehind(sites, locations) };
  } catch (err) {
    if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
      return { kind: 'refused', status: err.status };
    }
    throw err;
  }
}

/** The words for a SitesReading, to follow a Degraded state ("" when nothing to add). */
export function sitesNote(reading: SitesReading | undefined): string {
  if (!reading) return '';
  if (reading.kind === 'refused')
    return `the Sites could not be read (HTTP ${reading.status}: not permitted)`;
  return reading.problems.length === 0 ? 'every Site of its regions is Connected' : '';
}
