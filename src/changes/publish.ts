/**
 * How the domain publishes its change events (issue 39): as data, after the
 * store commits. An event about a write goes in the same transaction as the
 * write (`write`: an outbox row beside the change, both or neither); an event
 * about writes already committed, or about none (a refused or stale click, a
 * follow-up step), is appended on its own (`publish`). Then this replica's listeners
 * are told without being awaited (`Events.post`), and the row says so
 * (`toldHere`), so the other replicas leave it alone; a row published where
 * nobody listens (a worker: HARBOR_ROLE=worker) is drawn by one replica that
 * does (changes/outbox-reader.ts). The engine never waits for a listener and
 * never calls a surface.
 */
import type { Clock } from '../runtime/clock.js';
import type { ReleaseEvents } from '../runtime/events.js';
import type { Logger } from '../runtime/logger.js';
import type { AtomicStore, OutboxStore, TransactionStore } from '../store/types.js';
import { FINAL_STATUSES } from './change.js';
import { type ChangeEvent, type ChangeEvents, changesOf } from './events.js';

/** The outbox topic of change events. */
export const CHANGE_TOPIC = 'change';

export interface PublisherOptions {
  store: OutboxStore & AtomicStore;
  changeEvents: ChangeEvents;
  releaseEvents: ReleaseEvents;
  replicaId: string;
  clock: Pick<Clock, 'now'>;
  logger: Logger;
}

export class ChangePublisher {
  constructor(private readonly o: PublisherOptions) {}

  /**
   * Runs `work` (the change's write) in one transaction with the outbox row
   * of the event it tells (`eventOf` its result; none when it moved
   * nothing), then tells this replica's listeners. Returns `work`'s result.
   */
  async write<T>(
    work: (tx: TransactionStore) => Promise<T>,
    eventOf: (written: T, tx: TransactionStore) => Promise<ChangeEvent | undefined>,
  ): Promise<T> {
    const toldHere = this.o.changeEvents.listening();
    const { written, event } = await this.o.store.atomically(async (tx) => {
      const written = await work(tx);
      const event = await eventOf(written, tx);
      if (event) await tx.appendOutbox(this.entry(event, toldHere));
      return { written, event };
    });
    if (event) this.tell(event);
    return written;
  }

  /**
   * Publishes an event about what is committed already (or about nothing the
   * store holds): its row, then this replica's listeners. A store that
   * refuses the row costs the other replicas this event, never the caller's
   * work (logged; a finished change's message is repaired from the store).
   */
  async publish(event: ChangeEvent): Promise<void> {
    const toldHere = this.o.changeEvents.listening();
    try {
      await this.o.store.appendOutbox(this.entry(event, toldHere));
    } catch (error) {
      this.o.logger.warn('could not write a change event to the outbox', { kind: event.kind, error });
    }
    this.tell(event);
  }

  /** Tells this replica's listeners (and its release threads) without waiting for them. */
  tell(event: ChangeEvent): void {
    this.o.changeEvents.post(event);
    tellReleases(this.o.releaseEvents, event);
  }

  private entry(event: ChangeEvent, toldHere: boolean) {
    return {
      topic: CHANGE_TOPIC,
      at: this.o.clock.now(),
      publisher: this.o.replicaId,
      toldHere,
      payload: event,
    };
  }
}

/**
 * What shows a release redraws when a click or housekeeping moved one of its
 * changes (not for a click that moved nothing, nor for what only the change's
 * own message and thread show: applying, a follow-up's steps, notices).
 */
export function tellReleases(releaseEvents: ReleaseEvents, event: ChangeEvent): void {
  if (event.kind !== 'clicked' && event.kind !== 'closed') return;
  if (event.kind === 'clicked' && !movedByClick(event)) return;
  if (event.kind === 'closed' && event.ownOnly) return;
  const releaseIds = new Set(
    changesOf(event).flatMap((c) => (c.origin.releaseId ? [c.origin.releaseId] : [])),
  );
  for (const releaseId of releaseIds) releaseEvents.post({ releaseId });
}

/**
 * A refused click moved nothing, nor a stale one on a change still applying
 * (a redraw then could land after the applying click's own). A stale click on
 * a finished change is told, which repairs a release message an outage left.
 */
function movedByClick(event: Extract<ChangeEvent, { kind: 'clicked' }>): boolean {
  const { outcome } = event;
  if (outcome.kind === 'refused') return false;
  if (outcome.kind !== 'stale') return true;
  return FINAL_STATUSES.includes(outcome.change.status);
}
