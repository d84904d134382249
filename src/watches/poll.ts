/**
 * One poll of one environment by the replica holding its lease: claim the
 * poll in the store (at most one per interval, whoever asks), list each kind
 * once, step the episodes, open the alerts that are due in every subscribed
 * channel allowed to read the object, end the episodes that recovered, then
 * draw what is not drawn yet. An API failure pauses polling (kept in the
 * store) and changes nothing else: an unanswered poll is not a recovery.
 */

import { readServerStates } from '../changes/fleet-servers.js';
import { ApiError } from '../gamefabric/errors.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { ChangeStore } from '../store/types.js';
import type { WatchAlert, WatchStore, WatchSubscription } from '../store/watch-types.js';
import { pauseAfter } from './backoff.js';
import { stepEpisodes } from './episodes.js';
import { type Listing, type Observation, troubleIn } from './observe.js';
import { stalledRollouts } from './rollouts.js';
import { serverTrouble } from './server-alerts.js';
import { withSites } from './sites.js';
import type { AlertMessenger, ChannelMayRead, WatchSource } from './types.js';
import { stuckVessels } from './vessel-stuck.js';

export interface PollDeps {
  store: WatchStore & Pick<ChangeStore, 'listChanges'>;
  source: WatchSource;
  messenger: AlertMessenger;
  mayRead: ChannelMayRead;
  intervalMs: number;
  settleMs: number;
  /** How long a Vessel may be out of Running before it alerts (HARBOR_WATCH_VESSEL_STUCK_S; default 600 s). */
  vesselStuckMs?: number;
  /** Times the drawing of alerts (it waits for Slack's budget). */
  clock: Clock;
  /** This replica's id: the owner of its alert-post claims. */
  replica: string;
  newId: () => string;
  logger: Logger;
  /** Told of each poll and each alert drawn (the replica's metrics). */
  count?: (event: 'polled' | 'failed' | 'posted' | 'recovered') => void;
}

/** What one call did, for tests and the bench. */
export type PollOutcome = 'not-due' | 'polled' | 'failed';

/** A claim on posting older than this is taken over (its replica died between claim and post). */
const POST_CLAIM_STALE_MS = 60_000;

/** The documented Starting timeout (vessel-states.md): the default for vesselStuckMs. */
export const DEFAULT_VESSEL_STUCK_MS = 600_000;

async function list(source: WatchSource, env: string): Promise<Listing> {
  const lister = source.listArmadaServerStates?.bind(source);
  const [armadas, armadaSets, formations, vessels, serverStates] = await Promise.all([
    source.listArmadas(env),
    source.listArmadaSets(env),
    source.listFormations(env),
    source.listVessels(env),
    lister ? readServerStates({ listArmadaServerStates: lister }, env) : undefined,
  ]);
  return { armadas, armadaSets, formations, vessels, ...(serverStates ? { serverStates } : {}) };
}

/** The objects' own troubles beyond their state: Armadas without ready servers, Vessels out of Running. */
function ownTrouble(deps: PollDeps, listing: Listing, bad: Observation[]): Observation[] {
  const servers = serverTrouble(listing.armadas, listing.serverStates, bad);
  const stuck = stuckVessels(listing.vessels, bad, deps.vesselStuckMs ?? DEFAULT_VESSEL_STUCK_MS);
  return [...bad, ...servers, ...stuck];
}

/** Polls `env` at `now` if its poll is due. */
export async function pollEnvironment(deps: PollDeps, env: string, now: number): Promise<PollOutcome> {
  const { store } = deps;
  // A little slack so a timer firing a hair early does not skip a whole interval.
  if (!(await store.claimPoll(env, deps.intervalMs - 50, now))) return 'not-due';
  let bad: Observation[];
  let listing: Listing;
  try {
    listing = await list(deps.source, env);
    bad = ownTrouble(deps, listing, await withSites(deps.source, env, troubleIn(listing)));
  } catch (err) {
    const status = err instanceof ApiError ? err.status : 0;
    const reason = err instanceof ApiError ? (err.reason ?? err.apiMessage) : (err as Error).message;
    const failures = ((await store.getPoller(env))?.failures ?? 0) + 1;
    const pause = pauseAfter(
      failures,
      deps.intervalMs,
      err instanceof ApiError ? err.retryAfterMs : undefined,
    );
    await store.notePoll(env, { status, reason, at: now, resumeAt: now + pause });
    deps.logger.warn('watch poll failed', { env, status, failures, pauseMs: pause });
    deps.count?.('failed');
    return 'failed';
  }
  await store.notePoll(env, undefined);
  deps.count?.('polled');
  bad = [...bad, ...(await stalledRollouts(store, env, listing, bad, deps.intervalMs, now))];
  const step = stepEpisodes(env, await store.listTroubles(env), bad, deps.settleMs, now);
  for (const t of step.put) await store.putTrouble(t);
  if (step.due.length > 0) {
    const subs = await store.listWatches({ env });
    const byKey = new Map(bad.map((o) => [`${o.kind}/${o.name}`, o]));
    for (const trouble of step.due) {
      const seen = byKey.get(trouble.objectKey);
      if (seen) await openAlerts(deps, subs, seen, trouble.firstBadAt, env, now);
    }
  }
  for (const { trouble, lastedMs } of step.ended) {
    await store.recoverAlerts(env, trouble.objectKey, lastedMs, now);
    await store.deleteTrouble(env, trouble.objectKey);
  }
  await drawPending(deps, env);
  return 'polled';
}

async function openAlerts(
  deps: PollDeps,
  subs: readonly WatchSubscription[],
  seen: Observation,
  firstBadAt: number,
  env: string,
  now: number,
): Promise<void> {
  const key = `${seen.kind}/${seen.name}`;
  const muted = new Set(await deps.store.mutedChannels(env, key, now));
  const alerts: WatchAlert[] = [];
  for (const sub of subs) {
    if (muted.has(`${sub.workspace}:${sub.channel}`) || !(await deps.mayRead(sub, seen))) continue;
    alerts.push({
      id: deps.newId(),
      workspace: sub.workspace,
      channel: sub.channel,
      env,
      objectKey: key,
      kind: seen.kind,
      name: seen.name,
      ...(seen.region !== undefined ? { region: seen.region } : {}),
      state: seen.state,
      ...(seen.reason !== undefined ? { reason: seen.reason } : {}),
      ...(seen.detail !== undefined ? { detail: seen.detail } : {}),
      firstBadAt,
      openedAt: now,
      drawn: 'none',
    });
  }
  // One statement for every channel (each poll while the trouble lasts asks again, for channels
  // that subscribed since); the partial unique index leaves out the channels whose alert is open.
  await deps.store.openAlerts(alerts);
}

/**
 * Posts the alerts not posted yet and edits the recovered ones not redrawn
 * yet. Driven from the store, so a replica that died between opening and
 * posting (or recovering and editing) leaves work the next poll finishes.
 */
export async function drawPending(deps: PollDeps, env: string): Promise<void> {
  const { store, messenger, clock } = deps;
  // Drawing waits for Slack's budget; past an interval the rest waits for the next poll, so the
  // loop renews its lease (and polls) on time however long the backlog.
  const until = clock.now() + deps.intervalMs;
  for (const alert of await store.listAlerts({ env, undrawn: true })) {
    if (clock.now() >= until) return;
    try {
      if (alert.recoveredAt === undefined) {
        const claim = () => store.claimAlertPost(alert.id, deps.replica, POST_CLAIM_STALE_MS, clock.now());
        const ts = await messenger.post(alert, claim);
        if (ts === undefined) continue;
        await store.markAlertDrawn(alert.id, 'open', ts);
        deps.count?.('posted');
      } else if (alert.messageTs !== undefined) {
        await messenger.update({ ...alert, messageTs: alert.messageTs });
        await store.markAlertDrawn(alert.id, 'recovered');
        deps.count?.('recovered');
      }
    } catch (err) {
      // Left undrawn: the next poll tries again (a post's claim lapses after a minute).
      deps.logger.warn('watch alert not drawn', { alert: alert.id, error: (err as Error).message });
    }
  }
}
