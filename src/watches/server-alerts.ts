/**
 * Per-Armada alerts on game servers that are not there for players, each the
 * Armada's own cause (one alert per Armada; an ArmadaSet is not alerted
 * again for the Armadas it owns, whose alerts name it):
 *
 * - `ScaleUpPanicked`: Scale to Zero's documented "no Ready servers" signal
 *   (GameFabric/docs `multiplayer-servers/deploy/scale-to-zero.md`, "Panicking
 *   or no ready replicas": no Ready replicas for several checks; its place in
 *   the status is inferred, fleet-state.ts `scaleToZeroStates`).
 * - No ready servers while its buffer is above zero: the buffer is the number
 *   of Ready servers the platform keeps (docs `deploy/replicas-and-buffer.md`);
 *   min 0 is the documented default, so a rule on the minimum would never
 *   fire for most fleets, and a minimum that is all allocated is no outage.
 *   Ready counts come from ArmadaGameServerStates where they can be read,
 *   else from the status where it reports them; with neither the rule cannot
 *   be judged and says nothing (a follow-up says "not verified" instead).
 */
import type { Armada } from '../api-shapes/armada-resources.js';
import { armadaSetOwner, hasDynamicBuffer } from '../api-shapes/armada-resources.js';
import { type ArmadaServerStates, stateCountsText, totalCount } from '../api-shapes/armada-server-states.js';
import type { ServerStatesReading } from '../changes/fleet-servers.js';
import { fleetState, scaleToZeroStates } from '../changes/fleet-state.js';
import { type Observation, objectKey } from './observe.js';

/** The buffer the Armada keeps Ready: manual sizes of its types that can run servers; a dynamic buffer counts as one. */
function bufferOf(a: Armada, parked: ReadonlyMap<string, string>): { size: number; dynamic: boolean } {
  let size = 0;
  let dynamic = false;
  for (const d of a.spec.distribution) {
    // A drained type (max 0) or one parked at zero by Scale to Zero keeps no buffer.
    if ((d.maxReplicas ?? 0) === 0 || parked.get(d.name) === 'ScaledToZero') continue;
    if (hasDynamicBuffer(d)) dynamic = true;
    else size += d.bufferSize ?? 0;
  }
  return { size, dynamic };
}

/** What the Armada's servers look like, from the states list or the status; undefined when neither says. */
function readyOf(
  a: Armada,
  states: ArmadaServerStates | undefined,
): { ready: number; seen: string } | undefined {
  if (states) {
    return {
      ready: states.states.Ready ?? 0,
      seen: `game servers: ${stateCountsText(states.states)} (ArmadaGameServerStates)`,
    };
  }
  const c = fleetState(a).counts;
  if (c?.readyReplicas === undefined) return undefined;
  const up = c.replicas !== undefined ? `${c.replicas} up, ` : '';
  return { ready: c.readyReplicas, seen: `${up}${c.readyReplicas} ready (the status's counts)` };
}

/** The Armadas of `armadas` with no ready servers for players, skipping those already in trouble. */
export function serverTrouble(
  armadas: readonly Armada[],
  reading: ServerStatesReading | undefined,
  bad: readonly Observation[],
): Observation[] {
  const already = new Set(bad.map(objectKey));
  const byName = new Map(reading?.kind === 'read' ? reading.armadas.map((s) => [s.armada, s] as const) : []);
  const found: Observation[] = [];
  for (const a of armadas) {
    const name = a.metadata.name;
    if (already.has(objectKey({ kind: 'Armada', name }))) continue;
    const parked = scaleToZeroStates(a.status);
    const panicked = [...parked].filter(([, s]) => s === 'ScaleUpPanicked').map(([t]) => t);
    const states = byName.get(name);
    const ready = readyOf(a, states);
    const owner = armadaSetOwner(a);
    const ownedBy = owner ? `; owned by ArmadaSet ${owner}` : '';
    const where = { kind: 'Armada' as const, name, region: a.spec.region };
    if (panicked.length > 0) {
      found.push({
        ...where,
        state: 'ScaleUpPanicked',
        reason: `Scale to Zero scaled region type ${panicked.join(', ')} up in a panic: no Ready game servers for several checks${ready ? `; ${ready.seen}` : ''}${ownedBy}`,
        detail:
          'GameFabric panics when no game servers are Ready: demand may outrun the buffer, or new servers cannot become Ready (a build that does not start). Check the newest rollout and its logs.',
      });
      continue;
    }
    const buffer = bufferOf(a, parked);
    if (!ready || ready.ready > 0 || (buffer.size === 0 && !buffer.dynamic)) continue;
    // An Armada with no servers at all and no buffer to keep is not in trouble; one with a buffer is.
    if (states && totalCount(states.states) === 0 && buffer.size === 0 && !buffer.dynamic) continue;
    const kept = buffer.dynamic
      ? `a dynamic buffer${buffer.size > 0 ? ` and a buffer of ${buffer.size}` : ''}`
      : `a buffer of ${buffer.size}`;
    found.push({
      ...where,
      state: 'No ready servers',
      reason: `${ready.seen}; it keeps ${kept} Ready${ownedBy}`,
    });
  }
  return found;
}
