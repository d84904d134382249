/**
 * A fleet's game servers by state, read from ArmadaGameServerStates (named
 * in the docs, shape inferred: api-shapes/armada-server-states.ts). A 403 or
 * 404 is "not readable", not an error: the API does not serve the resource,
 * or the account may not read it; every surface then says the counts are not
 * known, never that all is well. An ArmadaSet's counts are those of the
 * Armadas it owns, summed.
 *
 * Used by rollout follow-ups (fleet-follow.ts), `armada show` /
 * `armadaset show` (armada-queries.ts) and watches (src/watches/).
 */
import { type Armada, armadaSetOwner } from '../api-shapes/armada-resources.js';
import {
  type ArmadaServerStates,
  addCounts,
  type StateCounts,
  stateCountsText,
  totalCount,
  UP_STATES,
  upCount,
} from '../api-shapes/armada-server-states.js';
import type { FleetKind, GameFabricClient } from '../gamefabric/client.js';
import { ApiError } from '../gamefabric/errors.js';

/** The environment's ArmadaGameServerStates, or why they could not be read. */
export type ServerStatesReading =
  | { kind: 'read'; armadas: ArmadaServerStates[] }
  | { kind: 'unreadable'; status: number };

/** Reads the environment's counts; 403/404 are "not readable", anything else is thrown. */
export async function readServerStates(
  client: Pick<GameFabricClient, 'listArmadaServerStates'>,
  env: string,
): Promise<ServerStatesReading> {
  try {
    return { kind: 'read', armadas: await client.listArmadaServerStates(env) };
  } catch (err) {
    if (err instanceof ApiError && (err.status === 403 || err.status === 404)) {
      return { kind: 'unreadable', status: err.status };
    }
    throw err;
  }
}

/** The Armadas behind a fleet: the Armada itself, or those an ArmadaSet owns. */
export function armadasOf(kind: FleetKind, name: string, armadas?: readonly Armada[]): string[] {
  if (kind === 'Armada') return [name];
  return (armadas ?? []).filter((a) => armadaSetOwner(a) === name).map((a) => a.metadata.name);
}

/** One fleet's counts (an ArmadaSet's summed over its Armadas); undefined when no item names them. */
export function fleetServerStates(
  armadas: readonly ArmadaServerStates[],
  names: readonly string[],
): ArmadaServerStates | undefined {
  const mine = armadas.filter((a) => names.includes(a.armada));
  if (mine.length === 0) return undefined;
  if (mine.length === 1) return mine[0];
  const byType = new Map<string, StateCounts>();
  for (const a of mine) for (const [t, c] of a.byType) byType.set(t, addCounts(byType.get(t) ?? {}, c));
  return {
    armada: names.join(', '),
    states: mine.reduce<StateCounts>((sum, a) => addCounts(sum, a.states), {}),
    byType,
    revisions: mine.flatMap((a) => a.revisions),
  };
}

/** Where a rollout to one image stands, as the game server counts show it. */
export type ServerRollout =
  /** Every server up runs the new build (old ones left only where Allocated, until their match ends). */
  | { kind: 'complete'; next: StateCounts; oldAllocated: number }
  /** Servers on the old build still serve, or new ones are not up yet. */
  | { kind: 'replacing'; next: StateCounts; old: StateCounts }
  /** The counts do not say which build a server runs (no revisions with images). */
  | { kind: 'unattributed'; states: StateCounts };

/** Reads a rollout of `internalName` from one fleet's counts. */
export function readServerRollout(s: ArmadaServerStates, internalName: string): ServerRollout {
  const withImages = s.revisions.filter((r) => r.images.length > 0);
  if (withImages.length === 0) return { kind: 'unattributed', states: s.states };
  let next: StateCounts = {};
  let old: StateCounts = {};
  for (const r of withImages) {
    if (r.images.includes(internalName)) next = addCounts(next, r.states);
    else old = addCounts(old, r.states);
  }
  const nextWaiting = totalCount(next) - upCount(next);
  const oldServing = totalCount(old) - (old.Allocated ?? 0);
  if (nextWaiting === 0 && oldServing === 0 && (upCount(next) > 0 || totalCount(old) === 0)) {
    return { kind: 'complete', next, oldAllocated: old.Allocated ?? 0 };
  }
  return { kind: 'replacing', next, old };
}

/** Servers in a state that is not up (Starting, Unhealthy, Error, ...). */
export const notUpCount = (c: StateCounts): number => totalCount(c) - upCount(c);

/** Ready servers. */
export const readyCount = (c: StateCounts): number => c.Ready ?? 0;

/** "new build: 0 Ready, 2 Unhealthy; previous build: 4 Ready, 1 Allocated". */
export function rolloutCountsText(r: Extract<ServerRollout, { kind: 'replacing' }>): string {
  const old = totalCount(r.old) > 0 ? `; previous build: ${stateCountsText(r.old)}` : '';
  return `new build: ${stateCountsText(r.next)}${old}`;
}

/** Whether a state counts as up (Ready, Allocated, Reserved). */
export const isUpState = (state: string): boolean => UP_STATES.has(state);

/** Why the counts are unknown, in a clause: "game server counts could not be read (armadagameserverstates: HTTP 404)". */
export function unreadableText(status: number): string {
  return `game server counts could not be read (armadagameserverstates: HTTP ${status}${status === 403 ? ', not permitted' : status === 404 ? ', not served' : ''})`;
}
