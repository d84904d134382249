/**
 * What counts as trouble, read from one listing of each kind (never a
 * per-object read): an Armada, ArmadaSet or Formation whose sync state is
 * Degraded; a Vessel in Error (an Armada without ready servers is judged in
 * server-alerts.ts, a Vessel out of Running in vessel-stuck.ts, a followed
 * rollout that stopped moving in rollouts.ts). Everything
 * else listed is well, and an object no longer listed is well too (it is
 * gone, and nothing is left to alert about).
 */

import type { Armada, ArmadaSet } from '../api-shapes/armada-resources.js';
import type { Formation, Vessel } from '../api-shapes/resources.js';
import type { ServerStatesReading } from '../changes/fleet-servers.js';
import { fleetState, isDegraded } from '../changes/fleet-state.js';
import type { AlertFleet, WatchKind } from '../store/watch-types.js';

/**
 * Causes that several fleets share (issue 38.6): a Site down or cordoned,
 * or, when no Site is known behind them, one Degraded reason. Their
 * observations name the fleets behind them (sites.ts groups them).
 */
export type CauseKind = 'Site' | 'Degraded';

/** One object in trouble, or one cause that fleets share, as the poller saw it. */
export interface Observation {
  kind: WatchKind | CauseKind;
  name: string;
  /** The region the object runs in, when it names one (Armadas, Vessels). */
  region?: string;
  state: string;
  reason?: string;
  /** Degraded fleets only: the regions whose Sites may be behind it (named from one Site and one Region list). */
  siteRegions?: string[];
  detail?: string;
  /** How long it must last before it alerts, when not the settle time (a Vessel out of Running). */
  dueAfterMs?: number;
  /** A cause's observation only: the fleets behind it (sorted by kind and name). */
  fleets?: AlertFleet[];
}

/** What a channel's read is judged on: one object of a watched kind. */
export interface ReadSubject {
  kind: WatchKind;
  name: string;
  region?: string;
}

/** `<Kind>/<name>`: an object's key within its environment. */
export const objectKey = (o: { kind: string; name: string }): string => `${o.kind}/${o.name}`;

/** The lists of one environment, one per kind. */
export interface Listing {
  armadas: readonly Armada[];
  armadaSets: readonly ArmadaSet[];
  formations: readonly Formation[];
  vessels: readonly Vessel[];
  /** Game servers per Armada by state, where the source offers them (server-alerts.ts). */
  serverStates?: ServerStatesReading;
}

function fleetTrouble(
  kind: 'Armada' | 'ArmadaSet',
  fleet: Armada | ArmadaSet,
  regions: readonly string[],
): Observation | undefined {
  const name = fleet.metadata.name;
  // An Armada runs in one region; an ArmadaSet's alert names none (What changed then looks at the set alone).
  const where = kind === 'Armada' && regions[0] !== undefined ? { region: regions[0] } : {};
  const state = fleetState(fleet);
  if (isDegraded(state)) {
    return {
      kind,
      name,
      ...where,
      state: 'Degraded',
      ...(state.reason ? { reason: state.reason } : {}),
      siteRegions: [...regions],
    };
  }
  return undefined;
}

/** The objects in trouble in one environment's listing. */
export function troubleIn(listing: Listing): Observation[] {
  const found: Observation[] = [];
  for (const a of listing.armadas) {
    const t = fleetTrouble('Armada', a, [a.spec.region]);
    if (t) found.push(t);
  }
  for (const s of listing.armadaSets) {
    const t = fleetTrouble(
      'ArmadaSet',
      s,
      s.spec.armadas.map((r) => r.region),
    );
    if (t) found.push(t);
  }
  for (const f of listing.formations) {
    if (f.status?.state === 'Degraded') {
      found.push({
        kind: 'Formation',
        name: f.metadata.name,
        state: 'Degraded',
        ...(f.status.reason ? { reason: f.status.reason } : {}),
      });
    }
  }
  for (const v of listing.vessels) {
    if (v.status?.state === 'Error') {
      found.push({
        kind: 'Vessel',
        name: v.metadata.name,
        region: v.spec.region,
        state: 'Error',
        ...(v.status.reason ? { reason: v.status.reason } : {}),
      });
    }
  }
  return found;
}
