/**
 * Polling follow-ups for Armadas and ArmadaSets after a scale or a rollout:
 * each change of what the status says is posted once; the verdict decides
 * when it is over. Polls with the injected clock, like the Vessel follow-ups.
 *
 * `status.state` is a sync state (fleet-state.ts): Degraded means a Site could
 * not take the configuration, not that the build is bad, so it is explained
 * with the Sites behind it and watched, never called a stuck rollout. Where
 * the status reports counts, a rollout whose counts stop moving is a stall;
 * where it reports none, the follow-up ends on what it can see (Synced) and
 * says that progress is not reported.
 */
import { formatSpan } from '../format/duration.js';
import type { FleetKind } from '../gamefabric/client.js';
import { readSitesBehind } from './fleet-sites.js';
import {
  countsText,
  describeFleetState,
  type Fleet,
  fleetState,
  isDegraded,
  PROGRESS_NOT_REPORTED,
  readRollout,
} from './fleet-state.js';
import type { FollowEvent, OperationContext } from './operation.js';
import { type SitesReading, sitesNote } from './site-join.js';

/** The follow is over (an event to post last) or goes on (undefined). */
export type FleetVerdict = (fleet: Fleet) => FollowEvent | undefined;

/**
 * Progress a follow-up expects to see move: a key that changes while it
 * moves (undefined: nothing to expect now), and the words for a stall.
 */
export interface FleetProgress {
  key(fleet: Fleet): string | undefined;
  stalled(fleet: Fleet, span: string): string;
}

/** "Synced (configuration on every site) · 5 up, 4 ready" or "Degraded (reason; site x: Error)". */
export function describeFleet(fleet: Fleet, sites?: SitesReading): string {
  const state = fleetState(fleet);
  const text = describeFleetState(state, sites?.kind === 'read' ? sites.problems : []);
  const note = isDegraded(state) ? sitesNote(sites) : '';
  return note ? `${text}; ${note}` : text;
}

/**
 * Polls `kind` `name` until `verdict` ends it or the timeout passes. While
 * Degraded, the Sites behind it are read (once per change) to say why. When
 * `progress` is given and its key stays the same for `stallPolls` polls and at
 * least a fifth of the follow time (at most a minute), the follow-up ends
 * failed with the stall's words: a build that never becomes Ready does not
 * heal by waiting, while a slow wave between two polls must not be called stuck.
 */
export async function* watchFleet(
  ctx: OperationContext,
  kind: FleetKind,
  environment: string,
  name: string,
  verdict: FleetVerdict,
  progress?: FleetProgress,
  stallPolls = 5,
): AsyncIterable<FollowEvent> {
  const deadline = ctx.clock.now() + ctx.follow.timeoutMs;
  const label = `${kind === 'Armada' ? 'Armada' : 'ArmadaSet'} ${name}`;
  let last: string | undefined;
  let lastKey: string | undefined;
  let unchanged = 0;
  let keyAt = ctx.clock.now();
  const stallMs = Math.min(60_000, ctx.follow.timeoutMs / 5);
  let sitesFor: { status: string; reading: SitesReading } | undefined;
  for (;;) {
    if (ctx.signal?.aborted) return;
    let fleet: Fleet;
    try {
      fleet =
        kind === 'Armada'
          ? await ctx.client.getArmada(environment, name)
          : await ctx.client.getArmadaSet(environment, name);
    } catch (err) {
      ctx.logger.warn('a follow-up could not read a fleet', { fleet: label, error: err });
      yield {
        kind: 'failed',
        message: `Stopped watching ${label}: the hosting API could not be read. Check with /harbor armadas ${environment}.`,
      };
      return;
    }
    const final = verdict(fleet);
    if (final) {
      yield final;
      return;
    }
    const state = fleetState(fleet);
    const statusKey = `${state.sync}|${state.reason ?? ''}`;
    if (isDegraded(state) && sitesFor?.status !== statusKey) {
      try {
        sitesFor = { status: statusKey, reading: await readSitesBehind(ctx.client, environment, fleet) };
      } catch (err) {
        ctx.logger.warn('a follow-up could not read the Sites', { fleet: label, error: err });
        sitesFor = undefined;
      }
    }
    const now = describeFleet(fleet, isDegraded(state) ? sitesFor?.reading : undefined);
    if (now !== last) {
      last = now;
      yield {
        kind: 'progress',
        message: `${label}: ${now}${isDegraded(state) ? '; still watching, the platform keeps syncing' : ''}`,
      };
    }
    const key = progress?.key(fleet);
    if (key === undefined || key !== lastKey) {
      lastKey = key;
      unchanged = 0;
      keyAt = ctx.clock.now();
    } else if (progress && ++unchanged >= stallPolls && ctx.clock.now() - keyAt >= stallMs) {
      yield {
        kind: 'failed',
        message: `${label}: ${progress.stalled(fleet, formatSpan(ctx.clock.now() - keyAt))}`,
      };
      return;
    }
    if (ctx.clock.now() >= deadline) {
      yield {
        kind: 'timeout',
        message: `Stopped watching ${label} after ${formatSpan(ctx.follow.timeoutMs)}; last seen: ${now}`,
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

/**
 * Follows a rollout of `kind` `name` to `label` (`image:tag`): first until
 * its template runs `internalName` (an ImageUpdater may switch it a moment
 * after the promotion), then on what the status shows. With counts: until
 * every game server is updated and Ready or Allocated; counts that stop moving
 * end it failed. Without counts: Synced ends it, saying only what is known.
 */
export function watchRollout(
  ctx: OperationContext,
  kind: FleetKind,
  environment: string,
  name: string,
  label: string,
  internalName: string,
): AsyncIterable<FollowEvent> {
  const what = `${kind} ${name} (${environment})`;
  return watchFleet(
    ctx,
    kind,
    environment,
    name,
    (fleet) => {
      const reading = readRollout(fleet, internalName);
      if (reading.kind === 'complete') {
        return {
          kind: 'done',
          message: `${what}: every game server runs ${label}: ${describeFleet(fleet)}`,
        };
      }
      if (reading.kind === 'synced') {
        return {
          kind: 'done',
          evidence: 'synced',
          message: `${what} runs ${label} in its template: ${PROGRESS_NOT_REPORTED}.`,
        };
      }
      return undefined;
    },
    {
      key: (fleet) => {
        const r = readRollout(fleet, internalName);
        if (r.kind !== 'replacing') return undefined;
        return `${r.updated}/${r.total}/${countsText(r.state.counts ?? {})}`;
      },
      stalled: (fleet, span) => {
        const r = readRollout(fleet, internalName);
        const done = r.kind === 'replacing' ? `${r.updated} of ${r.total}` : 'not all';
        return `the rollout to ${label} has not moved for ${span}: ${done} game servers run it (${describeFleet(fleet)}). New game servers are not becoming Ready: the build may fail to start. Servers on the old build keep running.`;
      },
    },
  );
}
