/**
 * A tail running on this replica, tied to its store record: progress is
 * written guarded by the record's version, so a write that conflicts is how
 * the owner learns that another replica asked it to stop or took it over;
 * each lease renewal looks at the record for the same reasons. When the
 * runner ends the lease is released (or left alone, when it was lost).
 */
import type { Logger } from '../runtime/logger.js';
import type { TailRecord, TailStore } from '../store/types.js';
import type { TailLease } from './leases.js';
import { parentOf, readProgress, type StopRequest, stopRequestOf, type TailProgress } from './progress.js';
import { releaseEnded, stopByUser, type TailAbort, type TailStopReason } from './stop-reason.js';

const WRITE_ATTEMPTS = 5;

/** How a tail's loop reports to its record. */
export interface TailHooks {
  /** Persists progress after each message write (errors are logged, the tail goes on). */
  save(progress: TailProgress): Promise<void>;
  /** Marks the tail stopped in the store, after the final message. */
  finish(progress: TailProgress, reason: TailStopReason): Promise<void>;
}

/** The loop that follows one tail's logs and draws them (the Slack layer's TailRunner). */
export interface TailWorker {
  /** Settles once the loop has ended (stopped or detached). */
  readonly done: Promise<unknown>;
  /** Ends the tail: a final message, then `finish`. */
  stop(reason: TailAbort): void;
  /** Leaves the tail as it is, for another replica or a restart to carry on. */
  detach(): void;
}

interface OwnedTailOptions {
  record: TailRecord;
  lease: TailLease;
  store: TailStore;
  replicaId: string;
  log: Logger;
  /** Told after the tail is recorded as stopped, whatever stopped it (release messages list live tails). */
  onStopped?: (record: TailRecord) => Promise<void>;
  /** Builds the runner with the store hooks this tail provides. */
  runner(hooks: TailHooks): TailWorker;
  /** Called once the runner has ended and the lease is dealt with. */
  onDone(): void;
}

/** One tail this replica runs: its runner, its lease and its record as last seen. */
export class OwnedTail {
  readonly runner: TailWorker;
  readonly done: Promise<void>;
  /** The record as last read or written here (its version guards our writes). */
  record: TailRecord;
  /** Another replica holds the tail now. */
  lost = false;
  private readonly o: OwnedTailOptions;

  constructor(options: OwnedTailOptions) {
    this.o = options;
    this.record = options.record;
    this.runner = options.runner({
      save: (progress) => this.save(progress),
      finish: (progress, reason) => this.finish(progress, reason),
    });
    const { lease, log } = options;
    lease.keep({
      onRenewed: () => this.check(),
      onLost: () => {
        log.warn('lost the lease of a tail to another replica', { tail: this.record.id });
        this.lose();
      },
    });
    this.done = this.runner.done
      .then(() => (this.lost ? lease.abandon() : lease.release()))
      .catch((error: unknown) => log.error('a tail ended badly', { tail: this.record.id, error }))
      .finally(() => options.onDone());
  }

  /** Acts on what a fresher record says: a stop request stops the tail; another owner means it is lost. */
  honour(record: TailRecord): void {
    this.record = record;
    const request = stopRequestOf(record.state);
    if (request) this.runner.stop(abortFor(request));
    const owner = readProgress(record.state)?.owner;
    if (owner !== undefined && owner !== this.o.replicaId) this.lose();
  }

  private lose(): void {
    this.lost = true;
    this.runner.detach();
  }

  /** On each renewal: stopped or gone elsewhere ends it here; a request is honoured. */
  private async check(): Promise<void> {
    const record = await this.o.store.getTail(this.record.id);
    if (!record || record.status === 'stopped') return this.runner.detach();
    this.honour(record);
  }

  /** Writes progress guarded by the record version (keeping any stop request in the state). */
  private async save(progress: TailProgress): Promise<void> {
    const { store } = this.o;
    for (let i = 0; i < WRITE_ATTEMPTS && !this.lost; i++) {
      const request = stopRequestOf(this.record.state);
      const state = withParent(request ? { ...progress, stopRequest: request } : progress, this.record.state);
      const updated = await store.updateTail(this.record.id, { state }, this.record.version);
      if (updated) {
        this.record = updated;
        return;
      }
      const fresh = await store.getTail(this.record.id);
      if (!fresh || fresh.status === 'stopped') return this.runner.detach();
      this.honour(fresh);
    }
  }

  private async finish(progress: TailProgress, reason: TailStopReason): Promise<void> {
    const { store, log } = this.o;
    const fresh = (await store.getTail(this.record.id)) ?? this.record;
    const request = stopRequestOf(fresh.state);
    const state = withParent(request ? { ...progress, stopRequest: request } : progress, fresh.state);
    const stopped = await store.updateTail(this.record.id, {
      status: 'stopped',
      stopReason: reason.kind,
      state,
    });
    log.info('tail stopped', { tail: this.record.id, reason: reason.kind, seen: progress.seen });
    if (stopped && this.o.onStopped) {
      await this.o.onStopped(stopped).catch((error) => log.warn('tail stop hook failed', { error }));
    }
  }
}

/** Adds a stop request to a record's state, unless it is stopped or already asked to stop; the record written, if any. */
export async function requestStop(
  store: TailStore,
  record: TailRecord,
  request: StopRequest,
): Promise<TailRecord | undefined> {
  let current: TailRecord | undefined = record;
  for (let i = 0; i < WRITE_ATTEMPTS && current; i++) {
    if (current.status === 'stopped' || stopRequestOf(current.state)) return undefined;
    const state = { ...(current.state as object), stopRequest: request };
    const updated = await store.updateTail(current.id, { state }, current.version);
    if (updated) return updated;
    current = await store.getTail(record.id);
  }
  return undefined;
}

/** The abort reason a stop request stands for. */
export function abortFor(request: StopRequest): TailAbort {
  return request.kind === 'stopped' ? stopByUser(request.by) : releaseEnded(request.release);
}

// The runner does not know the thread parent; the record keeps it across every write.
function withParent(progress: TailProgress, stored: unknown): TailProgress {
  const parentTs = parentOf(stored);
  return parentTs ? { ...progress, parentTs } : progress;
}
