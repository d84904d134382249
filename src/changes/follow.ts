/**
 * Polling follow-ups: watch a Vessel after a change until it reaches a state
 * worth reporting, emitting each state change once. Polls with the injected
 * clock, so tests drive it with a ManualClock.
 */

import { SCHEDULED_STATES, type Vessel, type VesselState } from '../api-shapes/resources.js';
import { formatSpan } from '../format/duration.js';
import { isNotFound } from '../gamefabric/errors.js';
import type { FollowEvent, OperationContext } from './operation.js';

/** Decides, from the Vessel as read now (undefined = gone), whether the follow is over. */
type FollowVerdict = (vessel: Vessel | undefined) => FollowEvent | undefined;

/** Looks once at the Vessel as first read, e.g. to check what it runs; may have something to say. */
type FirstSight = (vessel: Vessel) => FollowEvent | undefined;

/**
 * Polls a Vessel until `verdict` says the follow is over or the timeout
 * passes. `firstSight` sees the Vessel the first time it exists.
 */
export async function* watchVessel(
  ctx: OperationContext,
  environment: string,
  name: string,
  verdict: FollowVerdict,
  firstSight?: FirstSight,
): AsyncIterable<FollowEvent> {
  const deadline = ctx.clock.now() + ctx.follow.timeoutMs;
  const about = { environment, name };
  let lastState: string | undefined;
  let sighted = false;
  for (;;) {
    if (ctx.signal?.aborted) return;
    let vessel: Vessel | undefined;
    try {
      vessel = await ctx.client.getVessel(environment, name);
    } catch (err) {
      if (!isNotFound(err)) {
        ctx.logger.warn('a follow-up could not read a vessel', { environment, vessel: name, error: err });
        yield {
          kind: 'failed',
          // The error goes to the log; the thread says what to do.
          message: `Stopped watching vessel ${name}: the hosting API could not be read. Check with /harbor vessels ${environment}.`,
          vessel: about,
        };
        return;
      }
    }
    if (vessel && !sighted) {
      sighted = true;
      const seen = firstSight?.(vessel);
      if (seen) yield { ...seen, vessel: seen.vessel ?? about };
    }
    const final = verdict(vessel);
    if (final) {
      yield { ...final, vessel: final.vessel ?? about };
      return;
    }
    const state = describeState(vessel);
    if (state !== lastState) {
      lastState = state;
      const retrying =
        vessel?.status?.state === 'Error' ? '; the platform retries placement, still watching' : '';
      yield { kind: 'progress', message: `Vessel ${name}: ${state}${retrying}`, vessel: about, state };
    }
    if (ctx.clock.now() >= deadline) {
      yield {
        kind: 'timeout',
        message: `Stopped watching vessel ${name} after ${formatSpan(ctx.follow.timeoutMs)}; last seen: ${state}`,
        vessel: about,
        state,
      };
      return;
    }
    try {
      await ctx.clock.sleep(ctx.follow.pollMs, ctx.signal);
    } catch {
      return; // aborted: the bot is stopping
    }
  }
}

/** "Running", "Error (No suitable site found)", or "not created yet". */
export function describeState(vessel: Vessel | undefined): string {
  if (!vessel) return 'not created yet';
  const state = vessel.status?.state ?? 'Unknown';
  return vessel.status?.reason ? `${state} (${vessel.status.reason})` : state;
}

/**
 * Verdict for a Vessel that should get scheduled: done on Scheduled or later.
 * Error is not final: the platform retries placement with rate limiting
 * (docs vessel-states.md), so the follow-up shows the reason and keeps
 * watching until the vessel is placed or the follow-up's time is up.
 */
export const untilScheduled: FollowVerdict = (vessel) => {
  const state = vessel?.status?.state as VesselState | undefined;
  if (!vessel || !state) return undefined;
  if (SCHEDULED_STATES.includes(state)) {
    return {
      kind: 'done',
      message: `Vessel ${vessel.metadata.name} is placed (now ${describeState(vessel)})`,
      // What the follow-up established; the exact step (Starting, Running) moves on within moments.
      state: 'Scheduled',
    };
  }
  return undefined;
};

/** Verdict for a Vessel that should disappear. */
export function untilGone(name: string): FollowVerdict {
  return (vessel) =>
    vessel ? undefined : { kind: 'done', message: `Vessel ${name} is gone`, state: 'gone' };
}
