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
import type { AlertFleet, WatchAlert, WatchStore, WatchSubscription } from '../store/watch-types.js';
import { pauseAfter } from './backoff.js';
import { stepEpisodes } from './episodes.js';
import { type Listing, type Observation, type ReadSubject, troubleIn } from './observe.js';
import { stalledRollouts } from './rollouts.js';
import { serverTrouble } from './server-alerts.js';
import { byCause } from './sites.js';
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

/**
 * The objects' own troubles beyond their state (Armadas without Ready servers, Vessels out of
 * Running), for objects not already in trouble by their state (`bad`).
 */
function ownTrouble(deps: PollDeps, listing: Listing, bad: Observation[]): Observation[] {
  const servers = serverTrouble(listing.armadas, listing.serverStates, bad);
  const stuck = stuckVessels(listing.vessels, bad, deps.vesselStuckMs ?? DEFAULT_VESSEL_STUCK_MS);
  return [...servers, ...stuck];
}

/** Polls `env` at `now` if its poll is due. */
export async function pollEnvironment(deps: PollDeps, env: string, now: number): Promise<PollOutcome> {
  const { store } = deps;
  // A little slack so a timer firing a hair early does not skip a whole interval.
  if (!(await store.claimPoll(env, deps.intervalMs - 50, now))) return 'not-due';
  let bad: Observation[];
  let perObject: Observation[];
  let listing: Listing;
  try {
    listing = await list(deps.source, env);
    const states = troubleIn(listing);
    // An object's own causes beyond its state (no Ready servers, out of Running too long) stay per object.
    const own = ownTrouble(deps, listing, states);
    perObject = [...states, ...own];
    bad = [...(await byCause(deps.source, env, states, listing)), ...own];
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
  // A fleet grouped under a cause is still in trouble: a stalled rollout is told only of the well.
  bad = [...bad, ...(await stalledRollouts(store, env, listing, perObject, deps.intervalMs, now))];
  const known = await store.listTroubles(env);
  // A fleet's own Degraded episode opened before fleets were grouped by cause stays open while it
  // is Degraded (its cause's alert says the rest) and ends when it recovers: never a false all-clear.
  const rows = new Set(known.map((t) => t.objectKey));
  const before = perObject.filter((o) => o.siteRegions && rows.has(`${o.kind}/${o.name}`));
  const beforeKeys = new Set(before.map((o) => `${o.kind}/${o.name}`));
  const step = stepEpisodes(env, known, [...bad, ...before], deps.settleMs, now);
  step.due = step.due.filter((t) => !beforeKeys.has(t.objectKey));
  for (const t of step.put) await store.putTrouble(t);
  const byKey = new Map(bad.map((o) => [`${o.kind}/${o.name}`, o]));
  if (step.due.length > 0) {
    const subs = await store.listWatches({ env });
    for (const trouble of step.due) {
      const seen = byKey.get(trouble.objectKey);
      if (seen) await openAlerts(deps, subs, seen, trouble.firstBadAt, env, now);
    }
  }
  await reviseCauses(deps, env, byKey);
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
    if (muted.has(`${sub.workspace}:${sub.channel}`)) continue;
    // A cause's alert goes to a channel that may read a fleet behind it, naming only those fleets.
    const fleets = seen.fleets && (await visibleFleets(deps, sub, seen.fleets));
    if (fleets ? fleets.length === 0 : !(await mayReadObject(deps, sub, seen))) continue;
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
      ...(fleets ? { fleets } : {}),
      firstBadAt,
      openedAt: now,
      drawn: 'none',
    });
  }
  // One statement for every channel (each poll while the trouble lasts asks again, for channels
  // that subscribed since); the partial unique index leaves out the channels whose alert is open.
  await deps.store.openAlerts(alerts);
}

/** Whether the channel may read `o`, an object of a watched kind (a cause is judged by its fleets). */
async function mayReadObject(deps: PollDeps, sub: WatchSubscription, o: Observation): Promise<boolean> {
  if (o.kind === 'Site' || o.kind === 'Degraded') return false;
  const subject: ReadSubject = {
    kind: o.kind,
    name: o.name,
    ...(o.region !== undefined ? { region: o.region } : {}),
  };
  return deps.mayRead(sub, subject);
}

/** The fleets of `fleets` the channel may read. */
async function visibleFleets(
  deps: PollDeps,
  sub: WatchSubscription,
  fleets: readonly AlertFleet[],
): Promise<AlertFleet[]> {
  const out: AlertFleet[] = [];
  for (const f of fleets) if (await deps.mayRead(sub, f)) out.push(f);
  return out;
}

/**
 * Keeps each open cause alert naming the fleets behind its cause as this
 * poll saw them: a fleet that joined is added, one that recovered is kept
 * and marked recovered, so the message tells both; the alert is then
 * redrawn by the next draw. The alert itself ends with its episode, when
 * no fleet is left behind the cause (the settle rule, episodes.ts).
 */
async function reviseCauses(deps: PollDeps, env: string, byKey: ReadonlyMap<string, Observation>) {
  const open = (await deps.store.listAlerts({ env, open: true })).filter((a) => a.fleets);
  if (open.length === 0) return;
  const subs = new Map(
    (await deps.store.listWatches({ env })).map((s) => [`${s.workspace}:${s.channel}`, s]),
  );
  for (const alert of open) {
    const seen = byKey.get(alert.objectKey);
    const sub = subs.get(`${alert.workspace}:${alert.channel}`);
    if (!seen?.fleets || !sub) continue;
    const now = await visibleFleets(deps, sub, seen.fleets);
    const key = (f: AlertFleet) => `${f.kind}/${f.name}`;
    const current = new Set(now.map(key));
    const gone = (alert.fleets ?? [])
      .filter((f) => !current.has(key(f)))
      .map((f) => ({ ...f, recovered: true }));
    const fleets = [...now, ...gone];
    const revision = {
      state: seen.state,
      ...(seen.reason !== undefined ? { reason: seen.reason } : {}),
      ...(seen.detail !== undefined ? { detail: seen.detail } : {}),
      fleets,
    };
    const same =
      JSON.stringify(fleets) === JSON.stringify(alert.fleets) &&
      revision.state === alert.state &&
      revision.reason === alert.reason &&
      revision.detail === alert.detail;
    if (!same) await deps.store.reviseAlert(alert.id, revision);
  }
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
      if (alert.recoveredAt === undefined && alert.messageTs !== undefined) {
        // Posted, then revised (the fleets behind its cause changed): edit the same message.
        await messenger.update({ ...alert, messageTs: alert.messageTs });
        await store.markAlertDrawn(alert.id, 'open');
      } else if (alert.recoveredAt === undefined) {
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
