/**
 * `/harbor watch <env>`, `/harbor watches` and `/harbor unwatch <env>` without
 * Slack (issue 29): who may (policy operation `watch.manage`, judged like any
 * request), what the channel may be told (only what its policy lets it read),
 * and neutral answers for the renderer. Also the What changed and Mute 1 h
 * buttons of an alert.
 */
import { type Asker, authorizeRequest, judgeRequest } from '../changes/authorize.js';
import type { Change } from '../changes/change.js';
import { type AlertSubject, recentChanges } from '../changes/recent-changes.js';
import { UserError } from '../errors/user-error.js';
import type { Policy } from '../policy/types.js';
import type { ApprovalStore, ChangeStore, LeaseStore } from '../store/types.js';
import type { WatchAlert, WatchKind, WatchPollerRecord, WatchStore } from '../store/watch-types.js';
import { channelCoverage, KIND_READS, readTarget } from './channel-reads.js';
import { pollerLease } from './watcher.js';

export interface WatchesDeps {
  store: WatchStore & LeaseStore & Pick<ChangeStore, 'listChanges'> & Pick<ApprovalStore, 'listApprovalsFor'>;
  policy: Policy;
  /** The environments that exist (the API's list; the configured ones when it cannot say). */
  environments(): Promise<string[]>;
  intervalMs: number;
  settleMs: number;
}

/** How long Mute 1 h mutes. */
export const MUTE_MS = 60 * 60_000;

export type WatchAnswer =
  | {
      kind: 'watching';
      env: string;
      /** False: the channel already watched it (the answer says so, nothing changed). */
      added: boolean;
      covered: string[];
      left: { plural: string; reason: string }[];
      intervalMs: number;
      settleMs: number;
    }
  | { kind: 'unwatched'; env: string; removed: boolean; still: string[] }
  | { kind: 'watches'; items: WatchItem[]; intervalMs: number; settleMs: number };

export interface WatchItem {
  env: string;
  since: number;
  by: string;
  poller?: WatchPollerRecord;
  /** The replica polling it now, when one holds the lease. */
  polledBy?: string;
  open: WatchAlert[];
}

export interface WhatChanged {
  alert: WatchAlert;
  changes: Change[];
}

const ENV_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

export class Watches {
  constructor(private readonly d: WatchesDeps) {}

  private async checkEnv(env: string): Promise<void> {
    if (!ENV_NAME.test(env)) {
      throw new UserError(
        `"${env}" is not an environment name: lowercase letters, digits and dashes, e.g. prod.`,
        'validation',
      );
    }
    const known = await this.d.environments();
    if (known.length > 0 && !known.includes(env)) {
      throw new UserError(
        `There is no environment "${env}". Environments: ${known.join(', ')}.`,
        'not_found',
      );
    }
  }

  /** Subscribes the asker's channel to trouble in `env`, for what the channel may read. */
  async watch(asker: Asker, env: string, now: number): Promise<WatchAnswer> {
    await this.checkEnv(env);
    await authorizeRequest(this.d.policy, asker, 'watch.manage', { environment: env });
    const coverage = await channelCoverage(this.d.policy, asker.channel, env);
    const covered = coverage.filter((c) => c.allowed).map((c) => c.plural);
    const left = coverage.flatMap((c) => (c.allowed ? [] : [{ plural: c.plural, reason: c.reason ?? '' }]));
    if (covered.length === 0) {
      throw new UserError(
        `This channel can not watch ${env}: it may read none of what a watch reports there (${left.map((l) => `${l.plural}: ${l.reason}`).join('; ')}). Watch it from a channel the policy lets read ${env}.`,
        'refused',
      );
    }
    const added = await this.d.store.addWatch({
      workspace: asker.team,
      channel: asker.channel,
      env,
      createdBy: asker.user,
      createdAt: now,
    });
    return {
      kind: 'watching',
      env,
      added,
      covered,
      left,
      intervalMs: this.d.intervalMs,
      settleMs: this.d.settleMs,
    };
  }

  /** Ends the channel's watch of `env`. */
  async unwatch(asker: Asker, env: string): Promise<WatchAnswer> {
    if (!ENV_NAME.test(env)) {
      throw new UserError(
        `"${env}" is not an environment name: lowercase letters, digits and dashes, e.g. prod.`,
        'validation',
      );
    }
    await authorizeRequest(this.d.policy, asker, 'watch.manage', { environment: env });
    const removed = await this.d.store.removeWatch(asker.team, asker.channel, env);
    const still = (await this.d.store.listWatches({ workspace: asker.team, channel: asker.channel })).map(
      (w) => w.env,
    );
    return { kind: 'unwatched', env, removed, still };
  }

  /** The channel's watches: each environment, its poller's state and its open alerts here. */
  async list(asker: Asker): Promise<WatchAnswer> {
    const subs = await this.d.store.listWatches({ workspace: asker.team, channel: asker.channel });
    const items: WatchItem[] = [];
    for (const sub of subs) {
      const poller = await this.d.store.getPoller(sub.env);
      const lease = await this.d.store.getLease(pollerLease(sub.env));
      const open = await this.d.store.listAlerts({
        workspace: asker.team,
        channels: [asker.channel],
        env: sub.env,
        open: true,
        limit: 10,
      });
      items.push({
        env: sub.env,
        since: sub.createdAt,
        by: sub.createdBy,
        ...(poller ? { poller } : {}),
        ...(lease ? { polledBy: lease.owner } : {}),
        open,
      });
    }
    return { kind: 'watches', items, intervalMs: this.d.intervalMs, settleMs: this.d.settleMs };
  }

  private async alertFor(asker: Asker, alertId: string): Promise<WatchAlert> {
    const alert = await this.d.store.getAlert(alertId);
    if (!alert || alert.workspace !== asker.team)
      throw new UserError('That alert is no longer known.', 'stale');
    return alert;
  }

  /** What changed: the changes applied to the alert's object and its region in the last 24 h. */
  async whatChanged(asker: Asker, alertId: string, now: number): Promise<WhatChanged> {
    const alert = await this.alertFor(asker, alertId);
    if (alert.fleets) return { alert, changes: await this.changesBehind(asker, alert, now) };
    // The changes to an object are read as the object is: the asker must be let read it.
    const kind = alert.kind as WatchKind;
    const read = KIND_READS[kind];
    if (read)
      await authorizeRequest(this.d.policy, asker, read.operation, readTarget(alert.env, { ...alert, kind }));
    const changes = await recentChanges(
      this.d.store,
      {
        env: alert.env,
        kind: alert.kind,
        name: alert.name,
        ...(alert.region ? { region: alert.region } : {}),
      },
      now,
    );
    return { alert, changes };
  }

  /**
   * What changed behind a cause's alert: the changes to the fleets behind it
   * (and their regions) the asker may read; refused as the first fleet's read
   * when the asker may read none of them.
   */
  private async changesBehind(asker: Asker, alert: WatchAlert, now: number): Promise<Change[]> {
    const readable: AlertSubject[] = [];
    let refusal: string | undefined;
    for (const f of alert.fleets ?? []) {
      const decision = await judgeRequest(
        this.d.policy,
        asker,
        KIND_READS[f.kind].operation,
        readTarget(alert.env, f),
      );
      if (decision.allowed)
        readable.push({
          env: alert.env,
          kind: f.kind,
          name: f.name,
          ...(f.region ? { region: f.region } : {}),
        });
      else refusal ??= decision.reason;
    }
    if (readable.length === 0 && refusal !== undefined) throw new UserError(refusal, 'refused');
    return recentChanges(this.d.store, readable, now);
  }

  /** Mutes the alert's object in its channel for an hour: no new alert there until then. */
  async mute(asker: Asker, alertId: string, now: number): Promise<WatchAlert> {
    const alert = await this.alertFor(asker, alertId);
    await authorizeRequest(this.d.policy, asker, 'watch.manage', { environment: alert.env });
    const muted = await this.d.store.muteAlert(alert.id, now + MUTE_MS, asker.user);
    if (!muted) throw new UserError('That alert is no longer known.', 'stale');
    return muted;
  }
}
