/**
 * The Sites behind a Degraded fleet: the Sites of the Locations its regions
 * use (joined in site-join.ts) that are not Connected or are cordoned (docs
 * glossary "Degraded", `architecture/regions-sites-and-locations.md`).
 * Reading Regions, Locations or Sites may be refused: the Sites are then
 * unknown, that is said with the reason, and the fleet is still shown.
 */
import type { Armada, ArmadaSet } from '../api-shapes/armada-resources.js';
import type { Region } from '../api-shapes/resources.js';
import type { GameFabricClient } from '../gamefabric/client.js';
import { ApiError } from '../gamefabric/errors.js';
import {
  isProblem,
  joinSites,
  type Placement,
  type Readout,
  type RegionsReadout,
  type SitesReading,
} from './site-join.js';

type Fleet = Armada | ArmadaSet;

/** Where a fleet runs: an Armada's region, an ArmadaSet's each, with the region types its distribution names. */
export function placementsOf(fleet: Fleet): Placement[] {
  const spec = fleet.spec as {
    region?: unknown;
    distribution?: { name: string }[];
    armadas?: { region: string; distribution: { name: string }[] }[];
  };
  if (typeof spec.region === 'string') {
    return [{ region: spec.region, types: (spec.distribution ?? []).map((d) => d.name) }];
  }
  return (spec.armadas ?? []).map((a) => ({ region: a.region, types: a.distribution.map((d) => d.name) }));
}

/** The regions a fleet runs in: an Armada's one, an ArmadaSet's each. */
export const regionsOf = (fleet: Fleet): string[] => placementsOf(fleet).map((p) => p.region);

/** A refusal (403, 404) as a readout; any other error is thrown. */
export async function readout<T>(read: () => Promise<readonly T[]>): Promise<Readout<T>> {
  try {
    return { ok: true, items: await read() };
  } catch (err) {
    if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
      return { ok: false, status: err.status };
    }
    throw err;
  }
}

async function readRegions(client: GameFabricClient, env: string, fleet: Fleet): Promise<RegionsReadout> {
  const items: Region[] = [];
  for (const name of regionsOf(fleet)) {
    const one = await readout(async () => [await client.getRegion(env, name)]);
    if (!one.ok) return { ok: false, status: one.status, region: name };
    items.push(...one.items);
  }
  return { ok: true, items };
}

/** Reads the Sites behind `fleet` through its Regions and their Locations; a refusal is a reading, not an error. */
export async function readSitesBehind(
  client: GameFabricClient,
  env: string,
  fleet: Fleet,
): Promise<SitesReading> {
  const regions = await readRegions(client, env, fleet);
  const locations = await readout(() => client.listLocations());
  const sites = await readout(() => client.listSites());
  const join = joinSites(regions, locations, sites, placementsOf(fleet));
  if (join.kind === 'unknown') return join;
  return { kind: 'read', problems: join.sites.filter(isProblem), total: join.sites.length };
}
