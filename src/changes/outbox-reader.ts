/**
 * Every replica that shows changes reads the outbox (issue 39): the events
 * another replica published where nobody listened (a worker's follow-ups,
 * expiries, recoveries) reach this replica's listeners, claimed once per
 * subscriber so one replica of several draws each. Rows their publisher told
 * its own listeners (`toldHere`) are left alone. Woken by PostgreSQL's
 * NOTIFY where the store can (`listenOutbox`), and polling on the injected
 * clock as the floor (SQLite, or a lost LISTEN connection). The cursor is
 * this replica's own, kept in memory from the newest row at start: what was
 * published while no replica listened is left to the repair loop (a
 * finished change whose message does not show it is redrawn from the store).
 */
import type { Clock } from '../runtime/clock.js';
import type { ReleaseEvents } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import type { AtomicStore, OutboxRow, OutboxStore } from '../store/types.js';
import type { ChangeEvent, ChangeEvents } from './events.js';
import { CHANGE_TOPIC, tellReleases } from './publish.js';

/** How many rows one read takes. */
const BATCH = 200;

/**
 * How long a gap in the seqs is waited for: PostgreSQL hands out seqs before
 * commit, so a row may become visible after a higher one; past this a gap is a
 * rolled-back write and is skipped.
 */
const GAP_WAIT_MS = 10_000;

export interface OutboxReaderOptions {
  store: OutboxStore & AtomicStore;
  changeEvents: ChangeEvents;
  releaseEvents: ReleaseEvents;
  /** Who claims rows nobody told (one per kind of surface, e.g. `slack`). */
  subscriber: string;
  clock: Pick<Clock, 'now' | 'sleep'>;
  /** The polling floor. */
  pollMs: number;
  /** How long a claim is kept (the outbox's retention). */
  claimTtlMs: number;
  logger: Logger;
}

export class OutboxReader {
  private cursor = 0;
  /** When each gap after the cursor was first seen. */
  private readonly gaps = new Map<number, number>();
  private reading: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly o: OutboxReaderOptions) {}

  /** Starts after the newest row, listens where the store can, and polls until `stop`. */
  async start(): Promise<void> {
    this.cursor = await this.o.store.lastOutboxSeq();
    try {
      this.unlisten = await this.o.store.listenOutbox?.(() => void this.readNow());
    } catch (error) {
      this.o.logger.warn('could not LISTEN for the outbox; polling only', { error });
    }
    this.loop = this.every();
  }

  /**
   * Reads and delivers what is new: at once when no read runs, else right
   * after the running one (asks made meanwhile share that read, as a burst of
   * NOTIFYs does). Resolves once the rows seen by then are delivered (their
   * listeners told, not finished).
   */
  readNow(): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    if (!this.reading) return this.begin();
    this.queued ??= this.reading.then(() => {
      this.queued = undefined;
      return this.stopping.signal.aborted ? undefined : this.begin();
    });
    return this.queued;
  }

  private begin(): Promise<void> {
    const run = this.readOnce()
      .catch((error: unknown) => this.o.logger.warn('could not read the outbox', { error }))
      .finally(() => {
        if (this.reading === run) this.reading = undefined;
      });
    this.reading = run;
    return run;
  }

  async stop(): Promise<void> {
    this.stopping.abort(new Error('outbox reader stopped'));
    await this.loop;
    await this.queued;
    await this.reading;
    await this.unlisten?.();
  }

  private async every(): Promise<void> {
    const { signal } = this.stopping;
    while (!signal.aborted) {
      try {
        await this.o.clock.sleep(this.o.pollMs, signal);
      } catch {
        return;
      }
      await this.readNow();
    }
  }

  private async readOnce(): Promise<void> {
    for (;;) {
      const rows = await this.o.store.readOutbox(this.cursor, BATCH);
      for (const row of rows) {
        if (!this.inOrder(row.seq)) return;
        this.cursor = row.seq;
        if (row.topic === CHANGE_TOPIC && !row.toldHere) await this.deliver(row);
      }
      if (rows.length < BATCH) return;
    }
  }

  /** Whether `seq` may be taken now: right after the cursor, or past a gap waited for long enough. */
  private inOrder(seq: number): boolean {
    if (seq === this.cursor + 1) {
      this.gaps.clear();
      return true;
    }
    const now = this.o.clock.now();
    const seen = this.gaps.get(this.cursor + 1) ?? now;
    this.gaps.set(this.cursor + 1, seen);
    if (now - seen < GAP_WAIT_MS) return false;
    this.gaps.clear();
    return true;
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const won = await this.o.store.claimOutbox(
      this.o.subscriber,
      row.seq,
      this.o.claimTtlMs,
      this.o.clock.now(),
    );
    if (!won) return;
    const event = row.payload as ChangeEvent;
    this.o.changeEvents.post(event);
    tellReleases(this.o.releaseEvents, event);
  }
}
