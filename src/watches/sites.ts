/**
 * One cause, one alert (issue 38.6). A Degraded fleet is Degraded because a
 * Site of its regions could not take its configuration, and one Site down
 * leaves every fleet there Degraded at once: alerting per fleet posts the
 * same Site three times. So Degraded fleets are grouped by cause: one
 * observation per Site behind them that is not Connected or is cordoned
 * (joined Region -> Locations -> Sites, changes/site-join.ts), naming every
 * fleet behind it; a fleet with no such Site known (the join could not be
 * made, or every Site is Connected) goes under its Degraded reason, with why
 * no Site is named; a Degraded ArmadaSet whose own Armada is there too goes
 * with that Armada (the set is Degraded because its Armada is, and says so
 * in a reason of its own). Regions, Locations and Sites are listed once per poll,
 * only while a fleet is Degraded, never per fleet. Every other observation
 * (a Vessel in Error, a stalled rollout: causes of the object's own) stays
 * per object.
 */

import { armadaSetOwner, type Location, type Site } from '../api-shapes/armada-resources.js';
import type { Region } from '../api-shapes/resources.js';
import { placementsOf, readout } from '../changes/fleet-sites.js';
import {
  isProblem,
  joinSites,
  type Placement,
  type Readout,
  type RegionsReadout,
  type SiteBehind,
  sitesNote,
  sitesUnknownNote,
} from '../changes/site-join.js';
import type { AlertFleet } from '../store/watch-types.js';
import type { Listing, Observation } from './observe.js';
import type { WatchSource } from './types.js';

/** The key of a Degraded reason's cause (an empty reason is its own cause). */
const NO_REASON = 'no reason given';

const byKindAndName = (a: AlertFleet, b: AlertFleet): number =>
  a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name);

function fleetOf(o: Observation): AlertFleet | undefined {
  if (o.kind !== 'Armada' && o.kind !== 'ArmadaSet') return undefined;
  return { kind: o.kind, name: o.name, ...(o.region !== undefined ? { region: o.region } : {}) };
}

/** The named regions out of the environment's list; the first one missing is unreadable (404). */
function regionsNamed(all: Readout<Region>, names: readonly string[]): RegionsReadout {
  if (!all.ok) return { ok: false, status: all.status, region: names[0] ?? '' };
  const byName = new Map(all.items.map((r) => [r.metadata.name, r]));
  const items: Region[] = [];
  for (const name of names) {
    const region = byName.get(name);
    if (!region) return { ok: false, status: 404, region: name };
    items.push(region);
  }
  return { ok: true, items };
}

interface Reads {
  regions: Readout<Region>;
  locations: Readout<Location>;
  sites: Readout<Site>;
}

async function readAll(source: WatchSource, env: string): Promise<Reads> {
  const [regions, locations, sites] = await Promise.all([
    readout(() => source.listRegions(env)),
    readout(() => source.listLocations()),
    readout(() => source.listSites()),
  ]);
  return { regions, locations, sites };
}

/** `bad` with its Degraded fleets replaced by the causes behind them (Sites, else reasons). */
export async function byCause(
  source: WatchSource,
  env: string,
  bad: Observation[],
  listing: Pick<Listing, 'armadas' | 'armadaSets'>,
): Promise<Observation[]> {
  const degraded = bad.filter((o) => o.siteRegions && fleetOf(o));
  if (degraded.length === 0) return bad;
  const reads = await readAll(source, env);
  const sites = new Map<string, { site: SiteBehind; fleets: AlertFleet[] }>();
  const reasons = new Map<string, { reason?: string; notes: Set<string>; fleets: AlertFleet[] }>();
  // The reason each Degraded Armada of an ArmadaSet is grouped under, by set.
  const ownedReason = new Map<string, string>();
  const owners = new Map(listing.armadas.map((a) => [a.metadata.name, armadaSetOwner(a)]));
  // The region types each fleet runs in: a Site of a type it does not use is not behind it.
  const placements = new Map<string, Placement[]>([
    ...listing.armadas.map((a) => [`Armada/${a.metadata.name}`, placementsOf(a)] as const),
    ...listing.armadaSets.map((s) => [`ArmadaSet/${s.metadata.name}`, placementsOf(s)] as const),
  ]);
  for (const o of degraded) {
    const fleet = fleetOf(o) as AlertFleet;
    const join = joinSites(
      regionsNamed(reads.regions, o.siteRegions ?? []),
      reads.locations,
      reads.sites,
      placements.get(`${o.kind}/${o.name}`),
    );
    const problems = join.kind === 'joined' ? join.sites.filter(isProblem) : [];
    for (const site of problems) {
      const cause = sites.get(site.name) ?? { site, fleets: [] };
      cause.fleets.push(fleet);
      sites.set(site.name, cause);
    }
    if (problems.length > 0) continue;
    const key = (o.kind === 'ArmadaSet' && ownedReason.get(o.name)) || o.reason || NO_REASON;
    const owner = o.kind === 'Armada' ? owners.get(o.name) : undefined;
    if (owner !== undefined && !ownedReason.has(owner)) ownedReason.set(owner, key);
    const cause = reasons.get(key) ?? {
      ...(o.reason ? { reason: o.reason } : {}),
      notes: new Set<string>(),
      fleets: [],
    };
    cause.notes.add(
      join.kind === 'unknown'
        ? sitesUnknownNote(join.why)
        : sitesNote({ kind: 'read', problems: [], total: join.sites.length }),
    );
    cause.fleets.push(fleet);
    reasons.set(key, cause);
  }
  return [...bad.filter((o) => !degraded.includes(o)), ...causesOf(sites, reasons)];
}

function causesOf(
  sites: ReadonlyMap<string, { site: SiteBehind; fleets: AlertFleet[] }>,
  reasons: ReadonlyMap<string, { reason?: string; notes: Set<string>; fleets: AlertFleet[] }>,
): Observation[] {
  const causes: Observation[] = [];
  for (const { site, fleets } of sites.values()) {
    causes.push({
      kind: 'Site',
      name: site.name,
      state: site.cordoned ? `${site.state}, cordoned` : site.state,
      ...(site.reason ? { reason: site.reason } : {}),
      detail: `Location ${site.locations.join(', ')}`,
      fleets: fleets.sort(byKindAndName),
    });
  }
  for (const [key, cause] of reasons) {
    causes.push({
      kind: 'Degraded',
      name: key,
      state: 'Degraded',
      ...(cause.reason ? { reason: cause.reason } : {}),
      detail: [...cause.notes].join('; '),
      fleets: cause.fleets.sort(byKindAndName),
    });
  }
  return causes;
}
