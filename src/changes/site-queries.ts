/**
 * `sites [<region>]` (issue 38.1): every Site with its state, reason and
 * cordon, and the fleets behind each: the Armadas and ArmadaSets (of each
 * environment the asker may read) whose regions' types list a Location that
 * names the Site (Region -> Locations -> Sites, site-join.ts). Sites and
 * Locations are cluster-scoped, Regions and fleets are per environment: the
 * answer covers every environment the policy lets the asker read, and says
 * which it left out. With a region, only the Sites of that region's
 * Locations (in each environment that has it). Where a link cannot be read,
 * that is said, and no fleet is said to be behind a Site on a guess.
 */
import type { Armada, ArmadaSet, Location } from '../api-shapes/armada-resources.js';
import type { Region } from '../api-shapes/resources.js';
import type { GameFabricClient } from '../gamefabric/client.js';
import { placementsOf, readout } from './fleet-sites.js';
import type { SiteProblem } from './fleet-state.js';
import { NotFoundError, whatExists } from './not-found.js';
import { type Readout, type SitesUnknown, siteRow } from './site-join.js';

/** A fleet behind a Site. */
export interface SiteFleet {
  environment: string;
  kind: 'Armada' | 'ArmadaSet';
  name: string;
  /** The region (of the fleet's) whose Locations hold the Site. */
  region: string;
}

export interface SiteView extends SiteProblem {
  /** The Locations that list the Site. */
  locations: string[];
  fleets: SiteFleet[];
}

/** An environment whose fleets are not in the answer, and why. */
export interface LeftOut {
  environment: string;
  why:
    | 'not-permitted'
    | 'fleets-not-permitted'
    | { status: number; what: 'Regions' | 'Armadas' | 'ArmadaSets' };
}

export interface SitesView {
  region?: string;
  sites: SiteView[];
  /** The environments whose regions and fleets were read. */
  environments: string[];
  leftOut: LeftOut[];
  /** Why the fleets behind the Sites (or, with a region, the Sites of it) are unknown; absent when known. */
  unknown?: SitesUnknown;
}

/** What the asker may read, per environment: decided by the caller (changes/reads.ts) from the policy. */
export interface SitesAccess {
  /** Whether the asker may read the Sites and regions of `environment` (`sites.list`). */
  sites(environment: string): Promise<boolean>;
  /** Whether the asker may list the fleets of `environment` (`armadas.list`). */
  fleets(environment: string): Promise<boolean>;
}

interface EnvironmentRead {
  environment: string;
  regions: Region[];
  fleets: (Armada | ArmadaSet)[];
}

/** The environments to look in: the API's list, else the configured ones. */
async function environmentsOf(client: GameFabricClient, configured: readonly string[]): Promise<string[]> {
  const listed = await readout(() => client.listEnvironments());
  return listed.ok ? listed.items.map((e) => e.metadata.name).sort() : [...configured];
}

async function readEnvironment(
  client: GameFabricClient,
  environment: string,
  withFleets: boolean,
): Promise<EnvironmentRead | LeftOut> {
  const regions = await readout(() => client.listRegions(environment));
  if (!regions.ok) return { environment, why: { status: regions.status, what: 'Regions' } };
  if (!withFleets) return { environment, regions: [...regions.items], fleets: [] };
  const armadas = await readout(() => client.listArmadas(environment));
  if (!armadas.ok) return { environment, why: { status: armadas.status, what: 'Armadas' } };
  const sets = await readout(() => client.listArmadaSets(environment));
  if (!sets.ok) return { environment, why: { status: sets.status, what: 'ArmadaSets' } };
  return { environment, regions: [...regions.items], fleets: [...armadas.items, ...sets.items] };
}

/**
 * The Sites of the Locations `region` lists (in `types`, or all its types),
 * from the Location list; a Location not listed makes them unknown.
 */
function sitesOfRegion(
  region: Region,
  locations: Readout<Location>,
  types?: readonly string[],
): string[] | SitesUnknown {
  if (!locations.ok) return { kind: 'refused', what: 'Locations', status: locations.status };
  const byName = new Map(locations.items.map((l) => [l.metadata.name, l]));
  const out: string[] = [];
  for (const t of region.spec.types) {
    if (types && !types.includes(t.name)) continue;
    for (const name of t.locations) {
      const location = byName.get(name);
      if (!location) return { kind: 'location-missing', location: name };
      out.push(...(location.spec?.sites ?? []));
    }
  }
  return out;
}

/** The answer to `sites [<region>]` for an asker allowed `access`. */
export async function querySites(
  client: GameFabricClient,
  access: SitesAccess,
  configured: readonly string[],
  region?: string,
): Promise<SitesView> {
  const sites = await client.listSites();
  const locations = await readout(() => client.listLocations());
  const leftOut: LeftOut[] = [];
  const read: EnvironmentRead[] = [];
  for (const environment of await environmentsOf(client, configured)) {
    if (!(await access.sites(environment))) {
      leftOut.push({ environment, why: 'not-permitted' });
      continue;
    }
    const withFleets = await access.fleets(environment);
    const r = await readEnvironment(client, environment, withFleets);
    if ('why' in r) leftOut.push(r);
    else {
      read.push(r);
      if (!withFleets) leftOut.push({ environment, why: 'fleets-not-permitted' });
    }
  }
  if (region !== undefined && !read.some((e) => e.regions.some((r) => r.metadata.name === region))) {
    const existing = [...new Set(read.flatMap((e) => e.regions.map((r) => r.metadata.name)))].sort();
    const where = read.map((e) => e.environment).join(', ') || 'no environment you may read';
    const message = `No region \`${region}\` in ${where}.${whatExists(region, existing, 'regions')}`;
    throw new NotFoundError('region', region, message);
  }
  let unknown: SitesUnknown | undefined;
  // Which Sites each (environment, region) uses.
  const used = new Map<string, Set<string>>();
  for (const e of read) {
    for (const r of e.regions) {
      const s = sitesOfRegion(r, locations);
      if (Array.isArray(s)) used.set(`${e.environment}/${r.metadata.name}`, new Set(s));
      else unknown ??= s;
    }
  }
  const locationsOf = (site: string): string[] =>
    locations.ok
      ? locations.items.filter((l) => (l.spec?.sites ?? []).includes(site)).map((l) => l.metadata.name)
      : [];
  const inRegion = (site: string): boolean =>
    region === undefined || read.some((e) => used.get(`${e.environment}/${region}`)?.has(site));
  const shown = region !== undefined && unknown ? sites : sites.filter((s) => inRegion(s.metadata.name));
  const views = shown.map((s): SiteView => {
    const name = s.metadata.name;
    const fleets: SiteFleet[] = [];
    for (const e of read) {
      for (const fleet of e.fleets) {
        for (const p of placementsOf(fleet)) {
          if (region !== undefined && p.region !== region) continue;
          const r = e.regions.find((x) => x.metadata.name === p.region);
          const behind = r && sitesOfRegion(r, locations, p.types);
          if (!Array.isArray(behind) || !behind.includes(name)) continue;
          const kind = 'armadas' in fleet.spec ? 'ArmadaSet' : 'Armada';
          fleets.push({ environment: e.environment, kind, name: fleet.metadata.name, region: p.region });
        }
      }
    }
    return { ...siteRow(s), locations: locationsOf(name), fleets };
  });
  return {
    ...(region !== undefined ? { region } : {}),
    sites: views.sort((a, b) => a.name.localeCompare(b.name)),
    environments: read.map((e) => e.environment),
    leftOut,
    ...(unknown ? { unknown } : {}),
  };
}
