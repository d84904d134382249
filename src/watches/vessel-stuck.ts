/**
 * A Vessel out of Running for longer than it should be (the Vessel's own
 * cause, one alert per Vessel). A Vessel Starting for more than 10 minutes
 * is rescheduled to another Site, and goes round Terminating and Pending
 * again (GameFabric/docs `multiplayer-servers/deploy/vessel-states.md`,
 * "Starting timeout"), so no single state stays: what is judged is how long
 * it has been out of Running, whatever the state now. Error is alerted on
 * its own (observe.ts) and Suspended is asked for, so neither counts here.
 *
 * The trouble is observed from the first poll that sees it, so its start is
 * kept in the store with the other troubles (a takeover keeps the clock), and
 * is due only once it lasted `stuckMs` (HARBOR_WATCH_VESSEL_STUCK_S, default
 * the documented 600 s): a Vessel starting normally never alerts.
 */
import type { Vessel } from '../api-shapes/resources.js';
import { formatSpan } from '../format/duration.js';
import { type Observation, objectKey } from './observe.js';

/** States a Vessel is meant to rest in, or that are alerted on otherwise. */
const NOT_STUCK: ReadonlySet<string> = new Set(['Running', 'Suspended', 'Error']);

/** The Vessels of `vessels` out of Running, due once out for `stuckMs`; those already in trouble are skipped. */
export function stuckVessels(
  vessels: readonly Vessel[],
  bad: readonly Observation[],
  stuckMs: number,
): Observation[] {
  const already = new Set(bad.map(objectKey));
  const found: Observation[] = [];
  for (const v of vessels) {
    const state = v.status?.state;
    // No state yet: nothing to judge (a Vessel just created).
    if (!state || NOT_STUCK.has(state)) continue;
    const name = v.metadata.name;
    if (already.has(objectKey({ kind: 'Vessel', name }))) continue;
    const now = v.status?.reason ? `${state}: ${v.status.reason}` : state;
    found.push({
      kind: 'Vessel',
      name,
      region: v.spec.region,
      state: 'Not running',
      reason: `out of Running for more than ${formatSpan(stuckMs)} (now ${now})`,
      detail:
        'A Vessel Starting for more than 10 minutes is rescheduled to another Site: its game server may not start (check its logs), or no Site can run it.',
      dueAfterMs: stuckMs,
    });
  }
  return found;
}
