/**
 * What an Armada's or ArmadaSet's status says, and only that. `status.state`
 * is a sync state (docs glossary "State", "Degraded"): Synced means the
 * configuration reached every Site; Degraded means it could not be deployed
 * to one or more Sites (Site unavailable, connectivity, capacity
 * deprovisioned), with `status.reason`. Neither says how far a rollout is:
 * no public source names replica counts, so they are optional here and a
 * reading without them never claims servers were replaced.
 *
 * Rollback (issue 28) and watches (issue 29) build on this module: the sync
 * state, its reason, the optional counts and the Sites behind a Degraded fleet.
 */

import {
  type Armada,
  type ArmadaSet,
  type ReplicaCounts,
  replicaCounts,
} from '../api-shapes/armada-resources.js';

export type Fleet = Armada | ArmadaSet;

/** The documented sync states; anything else is shown as read. */
export type SyncState = 'Synced' | 'Degraded';

export interface FleetState {
  /** `status.state` as read ("Unknown" when absent). */
  sync: string;
  reason?: string;
  /** The counts as a whole, or undefined when the status reports none (the public shape). */
  counts?: ReplicaCounts;
  /** Counts per region type, where reported. */
  byType: Map<string, ReplicaCounts>;
}

/** The state of `fleet` as its status tells it. */
export function fleetState(fleet: Fleet): FleetState {
  const { total, byType } = replicaCounts(fleet.status);
  return {
    sync: fleet.status?.state ?? 'Unknown',
    ...(fleet.status?.reason ? { reason: fleet.status.reason } : {}),
    ...(Object.keys(total).length > 0 ? { counts: total } : {}),
    byType,
  };
}

export const isSynced = (s: FleetState): boolean => s.sync === 'Synced';
export const isDegraded = (s: FleetState): boolean => s.sync === 'Degraded';

/** "5 up, 4 ready, 1 allocated, 5 updated": only the counts reported. */
export function countsText(c: ReplicaCounts): string {
  return [
    c.replicas !== undefined ? `${c.replicas} up` : '',
    c.readyReplicas !== undefined ? `${c.readyReplicas} ready` : '',
    c.allocatedReplicas !== undefined ? `${c.allocatedReplicas} allocated` : '',
    c.updatedReplicas !== undefined ? `${c.updatedReplicas} updated` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** A Site that cannot take the configuration or new game servers. */
export interface SiteProblem {
  name: string;
  state: string;
  reason?: string;
  cordoned: boolean;
}

/** "site ni-prod-fra-02: Error, connection lost" or "site x: Connected, cordoned". */
export function describeSite(p: SiteProblem): string {
  return `site ${p.name}: ${[p.state, p.cordoned ? 'cordoned' : '', p.reason ?? ''].filter(Boolean).join(', ')}`;
}

/**
 * "Synced (configuration on every site) · 5 up, 4 ready" or "Degraded (could
 * not sync to …; site x: Error, connection lost)". Counts only when reported.
 */
export function describeFleetState(s: FleetState, sites: readonly SiteProblem[] = []): string {
  const why = [s.reason ?? '', ...sites.map(describeSite)].filter(Boolean).join('; ');
  const head = isSynced(s)
    ? 'Synced (configuration on every site)'
    : isDegraded(s)
      ? `Degraded (${why || 'configuration not deployed to one or more sites; no reason given'})`
      : why
        ? `${s.sync} (${why})`
        : s.sync;
  const counts = s.counts ? countsText(s.counts) : '';
  return counts ? `${head} · ${counts}` : head;
}

/** Where a rollout to one image stands, as far as the status shows it. */
export type RolloutReading =
  /** The template does not run the image yet (an ImageUpdater may switch it a moment later). */
  | { kind: 'pending' }
  /** The configuration has not reached every Site: not a verdict on the build. */
  | { kind: 'degraded'; state: FleetState }
  /** Counts reported: `updated` of `total` game servers run the new template. */
  | { kind: 'replacing'; state: FleetState; updated: number; total: number }
  /** Counts reported: every game server runs the new template and is Ready or Allocated. */
  | { kind: 'complete'; state: FleetState }
  /** Synced and no counts: the configuration is on every Site; how many servers run it is not reported. */
  | { kind: 'synced'; state: FleetState };

/** Reads a rollout of `internalName` from the fleet as read now. */
export function readRollout(fleet: Fleet, internalName: string): RolloutReading {
  if (!fleet.spec.template.spec.containers.some((c) => c.image === internalName)) return { kind: 'pending' };
  const state = fleetState(fleet);
  if (!isSynced(state)) return { kind: 'degraded', state };
  const c = state.counts;
  if (!c || c.replicas === undefined || c.updatedReplicas === undefined) return { kind: 'synced', state };
  const running = (c.readyReplicas ?? 0) + (c.allocatedReplicas ?? 0);
  if (c.updatedReplicas >= c.replicas && (c.readyReplicas === undefined || running >= c.replicas)) {
    return { kind: 'complete', state };
  }
  return { kind: 'replacing', state, updated: c.updatedReplicas, total: c.replicas };
}

/**
 * The Scale to Zero state per region type, where the status reports one. The
 * states are documented; where they sit is not, so they are looked for in
 * `status.scaleToZero[]{regionType, state}` and in `status.regionTypes[].scaleToZero.state`
 * (both inferred).
 */
export function scaleToZeroStates(status: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof status !== 'object' || status === null) return out;
  const record = status as Record<string, unknown>;
  const put = (type: unknown, state: unknown) => {
    if (typeof type === 'string' && typeof state === 'string' && state !== '') out.set(type, state);
  };
  if (Array.isArray(record.scaleToZero)) {
    for (const e of record.scaleToZero) {
      if (typeof e === 'object' && e !== null)
        put((e as Record<string, unknown>).regionType, (e as Record<string, unknown>).state);
    }
  }
  if (Array.isArray(record.regionTypes)) {
    for (const e of record.regionTypes) {
      if (typeof e !== 'object' || e === null) continue;
      const z = (e as Record<string, unknown>).scaleToZero;
      if (typeof z === 'object' && z !== null)
        put((e as Record<string, unknown>).name, (z as Record<string, unknown>).state);
    }
  }
  return out;
}
