/**
 * Live log tails (TailService), platform-neutral: starting a tail has the
 * surface post its messages, then records it; the replica holding a tail's lease runs it; any
 * replica can stop it (directly when it runs here, else by a stop request in
 * the record that the owner sees on its next renewal); a periodic scan takes
 * over tails whose owner's lease lapsed. One pacer (fair queue) per workspace is
 * shared by every tail this replica runs, and draws from the workspace's
 * slots every replica shares (`sharedSlots`). Tails started here are not tasks of
 * the bot: they outlive the request that started them.
 */
import { randomUUID } from 'node:crypto';
import { UserError } from '../errors/user-error.js';
import { type Clock, systemClock } from '../runtime/clock.js';
import { Events } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import type { BudgetSnapshot } from '../runtime/tail-budget-metrics.js';
import { MessageBudget } from '../slack-budget/budget.js';
import { tailPacer } from '../slack-budget/tail-pacer.js';
import type { TailRecord } from '../store/types.js';
import { type LeaseSettings, TailLease } from './leases.js';
import type { TailPacer } from './messenger.js';
import { abortFor, OwnedTail, requestStop } from './owned-tail.js';
import {
  initialProgress,
  parentOf,
  readProgress,
  type StopRequest,
  stopRequestOf,
  type TailProgress,
} from './progress.js';
import { TAIL_DEFAULTS, type TailLimits, type TailServiceOptions } from './service-options.js';
import type { TailService, TailStartInput } from './types.js';

export type { TailServiceOptions } from './service-options.js';

/** The TailService of one replica; `startScanning` and `close` tie it to the bot's lifetime. */
export class ReplicaTailService implements TailService {
  private readonly o: TailServiceOptions;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly limits: TailLimits;
  private readonly leases: LeaseSettings;
  private readonly budgets = new Map<string, TailPacer>();
  private readonly local = new Map<string, OwnedTail>();
  private readonly scanStop = new AbortController();
  private scanning: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly changed: Events<TailRecord>;

  constructor(options: TailServiceOptions) {
    this.o = options;
    this.clock = options.clock ?? systemClock;
    this.log = options.logger.child({ component: 'tails' });
    this.changed = new Events(this.log);
    this.limits = {
      maxDurationMs: options.maxDurationMs ?? TAIL_DEFAULTS.maxDurationMs,
      backoff: options.backoff ?? TAIL_DEFAULTS.backoff,
      ...(options.maxReconnects !== undefined ? { maxReconnects: options.maxReconnects } : {}),
      initialTailLines: options.initialTailLines ?? TAIL_DEFAULTS.initialTailLines,
      ring: options.ring ?? TAIL_DEFAULTS.ring,
      maxMessages: options.maxMessages ?? TAIL_DEFAULTS.maxMessages,
    };
    this.leases = {
      store: options.store,
      owner: options.replicaId,
      ttlMs: options.leaseTtlMs ?? TAIL_DEFAULTS.leaseTtlMs,
      renewMs: options.renewMs ?? TAIL_DEFAULTS.renewMs,
      clock: this.clock,
      logger: this.log,
    };
  }

  async start(input: TailStartInput): Promise<TailRecord> {
    if (this.closed) throw new UserError('Harbormaster is shutting down; start the tail again in a moment.');
    const { store, replicaId } = this.o;
    const id = (this.o.newId ?? randomUUID)();
    const subject = {
      env: input.env,
      vessel: input.vessel,
      ...(input.container ? { container: input.container } : {}),
    };
    const { threadTs, messageTs, parentTs } = await this.o.surface.open(
      id,
      input,
      this.budget(input.workspace),
    );
    const record = await store.createTail({
      id,
      workspace: input.workspace,
      channel: input.channel,
      threadTs,
      messageTs,
      ...subject,
      ...(input.releaseId ? { releaseId: input.releaseId } : {}),
      startedBy: input.user,
      startedAt: this.clock.now(),
      status: 'active',
      state: initialProgress(replicaId, messageTs, parentTs),
    });
    const lease = await TailLease.acquire(this.leases, id);
    // A fresh id has no lease yet; should that ever fail, the scan of some replica picks the tail up.
    if (lease) this.launch(record, lease, initialProgress(replicaId, messageTs, parentTs));
    this.log.info('tail started', { tail: id, env: input.env, vessel: input.vessel, user: input.user });
    await this.announce(record);
    return record;
  }

  async stop(tailId: string, by: string): Promise<'stopped' | 'requested' | 'already_stopped'> {
    const record = await this.o.store.getTail(tailId);
    if (!record) throw new UserError('That log tail is not known (it may have been removed).', 'not_found');
    if (record.status === 'stopped') return 'already_stopped';
    return this.stopOne(record, { kind: 'stopped', by, at: this.clock.now() });
  }

  async stopRelease(releaseId: string): Promise<number> {
    const tails = await this.o.store.listTails({ status: 'active', releaseId });
    const endingHere: Promise<void>[] = [];
    for (const record of tails) {
      try {
        await this.stopOne(record, { kind: 'release_ended', release: releaseId, at: this.clock.now() });
        const here = this.local.get(record.id);
        if (here) endingHere.push(here.done);
      } catch (error) {
        this.log.error('could not stop a tail of an ended release', { tail: record.id, error });
      }
    }
    // The release's summary says its tails were stopped: those run here have written their last message by then.
    await Promise.all(endingHere);
    return tails.length;
  }

  async resumeOrphans(): Promise<void> {
    if (this.closed) return;
    const active = await this.o.store.listTails({ status: 'active' });
    for (const record of active) {
      if (this.closed) return;
      if (this.local.has(record.id)) continue;
      try {
        await this.tryResume(record.id);
      } catch (error) {
        this.log.error('could not take over a tail', { tail: record.id, error });
      }
    }
  }

  /** Takes over orphans now, then every scanMs until close(). */
  async startScanning(): Promise<void> {
    await this.resumeOrphans().catch((error: unknown) =>
      this.log.error('the first scan for orphaned tails failed', { error }),
    );
    this.scanning = this.scanLoop();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.scanStop.abort();
    await this.scanning;
    const running = [...this.local.values()];
    for (const tail of running) tail.runner.detach();
    await Promise.all(running.map((t) => t.done));
    for (const budget of this.budgets.values()) budget.close();
  }

  /** The budget of a workspace (shared by every tail of that workspace on this replica). */
  budget(workspace: string): TailPacer {
    const known = this.budgets.get(workspace);
    if (known) return known;
    const budget =
      this.o.budgets?.(workspace) ??
      tailPacer(new MessageBudget({ ...this.o.budget, clock: this.clock }, this.o.sharedSlots?.(workspace)));
    this.budgets.set(workspace, budget);
    return budget;
  }

  /** Resolves once no budget here has a call to the shared slots under way (tests move their clock then). */
  async budgetsIdle(): Promise<void> {
    await Promise.all([...this.budgets.values()].map((b) => b.idle()));
  }

  /** Whether a budget here has a call to the shared slots under way. */
  budgetsBusy(): boolean {
    return [...this.budgets.values()].some((b) => b.busy);
  }

  /** Each workspace budget's numbers now, for metrics. */
  budgetSnapshots(): BudgetSnapshot[] {
    const now = this.clock.now();
    return [...this.budgets].map(([workspace, budget]) => ({ workspace, ...budget.stats(), now }));
  }

  /** Ids of the tails running on this replica now. */
  runningHere(): string[] {
    return [...this.local.keys()];
  }

  /** Resolves when the tail stops or detaches here (at once when it does not run here). */
  async settled(tailId: string): Promise<void> {
    await this.local.get(tailId)?.done;
  }

  private async scanLoop(): Promise<void> {
    const scanMs = this.o.scanMs ?? TAIL_DEFAULTS.scanMs;
    for (;;) {
      try {
        await this.clock.sleep(scanMs, this.scanStop.signal);
      } catch {
        return;
      }
      await this.resumeOrphans().catch((error: unknown) =>
        this.log.error('the scan for orphaned tails failed', { error }),
      );
    }
  }

  /** Records the stop (so it survives a crash), then stops the tail here, or takes it over if nobody runs it. */
  private async stopOne(record: TailRecord, request: StopRequest): Promise<'stopped' | 'requested'> {
    const updated = await requestStop(this.o.store, record, request);
    if (updated) this.local.get(record.id)?.honour(updated);
    const abort = abortFor(request);
    const here = this.local.get(record.id);
    if (here) {
      here.runner.stop(abort);
      return 'stopped';
    }
    // An orphan would wait for the next scan; taking it over now ends it at once (it sees the request).
    if (await this.tryResume(record.id)) return 'stopped';
    return 'requested';
  }

  /** Takes a tail over when its lease can be had; true when it now runs here. */
  private async tryResume(tailId: string): Promise<boolean> {
    if (this.closed || this.local.has(tailId)) return false;
    const { store, replicaId } = this.o;
    const lease = await TailLease.acquire(this.leases, tailId);
    if (!lease) return false;
    const record = await store.getTail(tailId);
    const progress = record && readProgress(record.state);
    if (record?.status !== 'active' || this.local.has(tailId) || !progress) {
      if (record?.status === 'active' && !progress) {
        this.log.error('a tail record cannot be resumed (unreadable state); marking it stopped', {
          tail: tailId,
        });
        await store.updateTail(tailId, { status: 'stopped', stopReason: 'unreadable_state' });
      }
      await lease.release();
      return false;
    }
    const previousOwner = progress.owner;
    const mine: TailProgress = { ...progress, owner: replicaId };
    // Claiming in the record too lets a late write of the old owner notice that it lost the tail.
    const claimed = await store.updateTail(tailId, { state: mine }, record.version);
    if (!claimed) {
      await lease.release();
      return false;
    }
    const request = stopRequestOf(record.state);
    this.log.warn('taking over a tail', { tail: tailId, from: previousOwner });
    const here = this.launch(claimed, lease, mine, replicaId);
    if (request) here.runner.stop(abortFor(request));
    else if (previousOwner !== replicaId) void this.announceTakeover(claimed);
    return true;
  }

  onChanged(listener: (record: TailRecord) => void): () => void {
    return this.changed.on(listener);
  }

  /** Tells the release of `record`, if any, and whoever lists live tails, that its live tails changed. */
  private async announce(record: TailRecord): Promise<void> {
    await this.changed.emit(record);
    if (record.releaseId) await this.o.releaseEvents?.emit({ releaseId: record.releaseId });
  }

  /** A stopped tail's own parent message (the one it posted to start its thread) says it stopped. */
  private async redrawParent(record: TailRecord): Promise<void> {
    const parentTs = parentOf(record.state);
    const ended = readProgress(record.state)?.ended;
    if (!parentTs || !ended || !this.o.surface.closeParent) return;
    try {
      await this.o.surface.closeParent(record, parentTs, ended.reason, ended.at);
    } catch (error) {
      this.log.warn('could not redraw a stopped tail parent', { tail: record.id, error });
    }
  }

  private async announceTakeover(record: TailRecord): Promise<void> {
    try {
      await this.o.surface.announceTakeover(record, this.budget(record.workspace));
    } catch (error) {
      this.log.warn('could not post a takeover notice', { tail: record.id, error });
    }
  }

  private launch(
    record: TailRecord,
    lease: TailLease,
    progress: TailProgress,
    takenOverBy?: string,
  ): OwnedTail {
    const here: OwnedTail = new OwnedTail({
      record,
      lease,
      store: this.o.store,
      replicaId: this.o.replicaId,
      log: this.log,
      onStopped: async (stopped) => {
        await this.redrawParent(stopped);
        await this.announce(stopped);
      },
      runner: (hooks) =>
        this.o.surface.worker({
          record,
          progress,
          ...(takenOverBy ? { takenOverBy } : {}),
          budget: this.budget(record.workspace),
          limits: limitsFor(record, this.limits),
          hooks,
        }),
      onDone: () => {
        if (this.local.get(record.id) === here) this.local.delete(record.id);
      },
    });
    this.local.set(record.id, here);
    return here;
  }
}

/**
 * A tail in a release thread shares it with the release's previews, approval
 * prompts and results: it keeps to one message and scrolls it in place, so its
 * parts cannot bury what waits for people (a tail in its own thread may roll
 * over into new messages).
 */
function limitsFor(record: TailRecord, limits: TailLimits): TailLimits {
  return record.releaseId ? { ...limits, maxMessages: 1 } : limits;
}

/** Builds the service (nothing runs until start() or startScanning()). */
export function createTailService(options: TailServiceOptions): ReplicaTailService {
  return new ReplicaTailService(options);
}
