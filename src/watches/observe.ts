/**
 * What counts as trouble, read from one listing of each kind (never a
 * per-object read): an Armada, ArmadaSet or Formation whose sync state is
 * Degraded; a Vessel in Error; and, where the status reports counts, a fleet
 * with no ready game servers while its minimum is above zero (a followed
 * rollout that stopped moving is judged in rollouts.ts). Everything
 * else listed is well, and an object no longer listed is well too (it is
 * gone, and nothing is left to alert about).
 */

import type { Armada, ArmadaSet, Distribution } from '../api-shapes/armada-resources.js';
import type { Formation, Vessel } from '../api-shapes/resources.js';
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
}

const minimumOf = (distribution: readonly Distribution[]): number =>
  distribution.reduce((sum, d) => sum + (d.minReplicas ?? 0), 0);

function fleetTrouble(
  kind: 'Armada' | 'ArmadaSet',
  fleet: Armada | ArmadaSet,
  minimum: number,
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
  const counts = state.counts;
  if (counts?.readyReplicas === 0 && minimum > 0) {
    const up = counts.replicas !== undefined ? `${counts.replicas} up, ` : '';
    return {
      kind,
      name,
      ...where,
      state: 'No ready servers',
      reason: `${up}0 ready; the minimum is ${minimum}`,
    };
  }
  return undefined;
}

/** The objects in trouble in one environment's listing. */
export function troubleIn(listing: Listing): Observation[] {
  const found: Observation[] = [];
  for (const a of listing.armadas) {
    const t = fleetTrouble('Armada', a, minimumOf(a.spec.distribution), [a.spec.region]);
    if (t) found.push(t);
  }
  for (const s of listing.armadaSets) {
    const min = s.spec.armadas.reduce((sum, r) => sum + minimumOf(r.distribution), 0);
    const t = fleetTrouble(
      'ArmadaSet',
      s,
      min,
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
