/**
 * Polling follow-ups for Armadas and ArmadaSets after a scale or a rollout:
 * each change of state or counts is posted once; the verdict decides when it
 * is over. Polls with the injected clock, like the Vessel follow-ups.
 */

import { type Armada, type ArmadaSet, replicaCounts } from '../api-shapes/armada-resources.js';
import { formatSpan } from '../format/duration.js';
import type { FleetKind } from '../gamefabric/client.js';
import type { FollowEvent, OperationContext } from './operation.js';

type Fleet = Armada | ArmadaSet;

/** The follow is over (an event to post last) or goes on (undefined). */
export type FleetVerdict = (fleet: Fleet) => FollowEvent | undefined;

/** "Synced · 5 up, 4 ready, 1 allocated, 5 updated" or "Degraded (reason) · …". */
export function describeFleet(fleet: Fleet): string {
  const state = fleet.status?.state ?? 'Unknown';
  const { total } = replicaCounts(fleet.status);
  const counts = [
    total.replicas !== undefined ? `${total.replicas} up` : '',
    total.readyReplicas !== undefined ? `${total.readyReplicas} ready` : '',
    total.allocatedReplicas !== undefined ? `${total.allocatedReplicas} allocated` : '',
    total.updatedReplicas !== undefined ? `${total.updatedReplicas} updated` : '',
  ].filter(Boolean);
  const head = fleet.status?.reason ? `${state} (${fleet.status.reason})` : state;
  return counts.length ? `${head} · ${counts.join(', ')}` : head;
}

/**
 * Polls `kind` `name` until `verdict` ends it or the timeout passes. A fleet
 * that stays Degraded without any change for `stallPolls` polls and at least
 * a fifth of the follow time (at most a minute) is reported failed with its
 * reason: a missing image or a failing container does not heal by waiting,
 * while a slow rollout wave between two polls must not be called stuck.
 */
export async function* watchFleet(
  ctx: OperationContext,
  kind: FleetKind,
  environment: string,
  name: string,
  verdict: FleetVerdict,
  stallPolls = 5,
): AsyncIterable<FollowEvent> {
  const deadline = ctx.clock.now() + ctx.follow.timeoutMs;
  const label = `${kind === 'Armada' ? 'Armada' : 'ArmadaSet'} ${name}`;
  let last: string | undefined;
  let unchanged = 0;
  let changedAt = ctx.clock.now();
  const stallMs = Math.min(60_000, ctx.follow.timeoutMs / 5);
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
    const now = describeFleet(fleet);
    if (now !== last) {
      last = now;
      unchanged = 0;
      changedAt = ctx.clock.now();
      yield { kind: 'progress', message: `${label}: ${now}` };
    } else if (
      fleet.status?.state === 'Degraded' &&
      ++unchanged >= stallPolls &&
      ctx.clock.now() - changedAt >= stallMs
    ) {
      yield {
        kind: 'failed',
        message: `${label} is Degraded and has not moved for ${formatSpan(ctx.clock.now() - changedAt)}: ${now}`,
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
 * Follows a rollout of `kind` `name` to `label` (`image:tag`) until its
 * template runs `internalName` (an ImageUpdater may switch it a moment after
 * the promotion) and it is Synced with every game server updated; a Degraded
 * fleet that stalls ends it with the reason (watchFleet).
 */
export function watchRollout(
  ctx: OperationContext,
  kind: FleetKind,
  environment: string,
  name: string,
  label: string,
  internalName: string,
): AsyncIterable<FollowEvent> {
  return watchFleet(ctx, kind, environment, name, (fleet) => {
    if (!fleet.spec.template.spec.containers.some((c) => c.image === internalName)) return undefined;
    if (fleet.status?.state !== 'Synced') return undefined;
    const { total } = replicaCounts(fleet.status);
    if ((total.updatedReplicas ?? total.replicas ?? 0) < (total.replicas ?? 0)) return undefined;
    return {
      kind: 'done',
      message: `${kind} ${name} (${environment}) rolled out to ${label}: ${describeFleet(fleet)}`,
    };
  });
}
