/**
 * The join from a fleet to its Sites, as the platform records it: a Region's
 * types list Locations (`spec.types[].locations`), a Location lists its Sites
 * (`spec.sites`, nitrado/terraform-provider-ec `ec/core/schema_location.go`)
 * and a Site names no Location (`ec/core/schema_site.go`). Pure: the readers
 * (fleet-sites.ts, watches/sites.ts, site-queries.ts) hand it what they read
 * or why they could not. When any link is missing the Sites are unknown, and
 * that is said with the reason: never "every Site is Connected" on a guess.
 */
import type { Location, Site } from '../api-shapes/armada-resources.js';
import type { Region } from '../api-shapes/resources.js';
import type { SiteProblem } from './fleet-state.js';

/** What a list read gave: the items, or the HTTP status it was refused with (403, 404). */
export type Readout<T> = { ok: true; items: readonly T[] } | { ok: false; status: number };

/** The fleet's Regions as read, or the one that could not be read and how it was refused. */
export type RegionsReadout =
  | { ok: true; items: readonly Region[] }
  | { ok: false; status: number; region: string };

/** Why the Sites behind a fleet are unknown: data, worded by `sitesUnknownText`. */
export type SitesUnknown =
  | { kind: 'refused'; what: 'Sites' | 'Locations'; status: number }
  | { kind: 'region-unreadable'; region: string; status: number }
  | { kind: 'location-missing'; location: string }
  | { kind: 'site-missing'; site: string; location: string };

/** What is known of the Sites behind a fleet: the problem ones (of `total` read), or why they are unknown. */
export type SitesReading =
  | { kind: 'read'; problems: SiteProblem[]; total: number }
  | { kind: 'unknown'; why: SitesUnknown };

/** One Site behind a fleet, with the Locations (of the fleet's regions) that list it. */
export interface SiteBehind extends SiteProblem {
  locations: string[];
}

/** The Sites behind a fleet: every one (problem or not), or why they are unknown. */
export type SiteJoin = { kind: 'joined'; sites: SiteBehind[] } | { kind: 'unknown'; why: SitesUnknown };

/** A Site's state as a SiteProblem-shaped row (state Unknown when the status has none). */
export function siteRow(s: Site): SiteProblem {
  return {
    name: s.metadata.name,
    state: s.status?.state ?? 'Unknown',
    ...(s.status?.reason ? { reason: s.status.reason } : {}),
    cordoned: s.spec?.cordoned === true,
  };
}

/** Whether a Site cannot take the configuration or new game servers: not Connected, or cordoned. */
export const isProblem = (s: SiteProblem): boolean => s.state !== 'Connected' || s.cordoned;

/** Where a fleet runs: a region and the region types its distribution names (undefined: every type). */
export interface Placement {
  region: string;
  types?: readonly string[];
}

/**
 * The Locations the region types of `regions` list, in order, once each; with
 * `placements`, only the types the fleet's distribution names in each region.
 */
export function locationsOfRegions(regions: readonly Region[], placements?: readonly Placement[]): string[] {
  const typesIn = (region: string) => placements?.find((p) => p.region === region)?.types;
  return [
    ...new Set(
      regions.flatMap((r) => {
        const types = typesIn(r.metadata.name);
        return r.spec.types.filter((t) => !types || types.includes(t.name)).flatMap((t) => t.locations);
      }),
    ),
  ];
}

/**
 * Joins `regions` (each read, or the one that could not be) to their Sites
 * through the Locations of the region types the fleet runs in (`placements`). Every Location must be found and every Site it lists
 * must be in the Site list, or the answer is unknown.
 */
export function joinSites(
  regions: RegionsReadout,
  locations: Readout<Location>,
  sites: Readout<Site>,
  placements?: readonly Placement[],
): SiteJoin {
  if (!regions.ok) {
    return {
      kind: 'unknown',
      why: { kind: 'region-unreadable', region: regions.region, status: regions.status },
    };
  }
  if (!locations.ok)
    return { kind: 'unknown', why: { kind: 'refused', what: 'Locations', status: locations.status } };
  if (!sites.ok) return { kind: 'unknown', why: { kind: 'refused', what: 'Sites', status: sites.status } };
  const byLocation = new Map(locations.items.map((l) => [l.metadata.name, l]));
  const bySite = new Map(sites.items.map((s) => [s.metadata.name, s]));
  const behind = new Map<string, SiteBehind>();
  for (const name of locationsOfRegions(regions.items, placements)) {
    const location = byLocation.get(name);
    if (!location) return { kind: 'unknown', why: { kind: 'location-missing', location: name } };
    for (const siteName of location.spec?.sites ?? []) {
      const site = bySite.get(siteName);
      if (!site) return { kind: 'unknown', why: { kind: 'site-missing', site: siteName, location: name } };
      const known = behind.get(siteName);
      if (known) known.locations.push(name);
      else behind.set(siteName, { ...siteRow(site), locations: [name] });
    }
  }
  return { kind: 'joined', sites: [...behind.values()] };
}

/** "the Locations could not be read (HTTP 403: not permitted)", and so on: why the Sites are unknown. */
export function sitesUnknownText(why: SitesUnknown): string {
  const status = (s: number) => `HTTP ${s}${s === 403 ? ': not permitted' : s === 404 ? ': not found' : ''}`;
  switch (why.kind) {
    case 'refused':
      return `the ${why.what} could not be read (${status(why.status)})`;
    case 'region-unreadable':
      return `Region ${why.region} could not be read (${status(why.status)})`;
    case 'location-missing':
      return `Location ${why.location} is not in the Location list`;
    case 'site-missing':
      return `Site ${why.site} of Location ${why.location} is not in the Site list`;
  }
}

/** "the Sites behind it are unknown: <why>": what every surface says when the join could not be made. */
export const sitesUnknownNote = (why: SitesUnknown): string =>
  `the Sites behind it are unknown: ${sitesUnknownText(why)}`;

/**
 * The words for a SitesReading, to follow a Degraded state ("" when the
 * problem Sites are named instead). Only a complete join of Connected,
 * uncordoned Sites says so.
 */
export function sitesNote(reading: SitesReading | undefined): string {
  if (!reading) return '';
  if (reading.kind === 'unknown') return sitesUnknownNote(reading.why);
  if (reading.problems.length > 0) return '';
  return reading.total === 0
    ? 'the Locations of its regions list no Site'
    : `every Site of its regions (${reading.total}) is Connected and not cordoned`;
}
