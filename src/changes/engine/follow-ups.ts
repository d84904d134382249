/**
 * Following applied changes up, in the domain (issue 39): after a click
 * applies a change, when housekeeping finds a dead apply the API shows
 * applied, and when it resumes a follow-up a stopped replica cut short. Any
 * replica runs them, Slack or not (a worker: HARBOR_ROLE=worker); one at a
 * time per change under the follow-up lease. Each step is published as a
 * `step` event for whoever shows the change's thread; where a step ends is
 * recorded on the change with its `followed` event in the same transaction.
 */
import type { ChangeRecord } from '../../store/types.js';
import { holdFollowLease, uniqueOwner } from '../apply-lease.js';
import { type Change, toChange } from '../change.js';
import { outcomeOf, storedOutcome, worseOutcome } from '../follow-outcome.js';
import type { FollowEvent, Result } from '../operation.js';
import { operationModule } from '../operations/index.js';
import type { EngineCore } from './core.js';

export class FollowUps {
  /** Follow-ups running here. */
  private readonly running = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly core: EngineCore) {}

  /**
   * Follows `change` up in the background (minutes long; nobody waits for it).
   * A `resumed` one is announced first, once this replica holds its lease.
   */
  start(change: Change, resumed = false): void {
    if (this.stopping.signal.aborted || !operationModule(change.operation).follow) return;
    const run = (async () => {
      try {
        for await (const step of this.follow(change, this.stopping.signal, resumed)) {
          await this.core.publish({ kind: 'step', change, step });
        }
      } catch (error) {
        this.core.o.logger.warn('follow-up stopped', { changeId: change.id, error });
      }
    })().finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** Resolves once the follow-ups running here (and started meanwhile) have ended. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Ends the follow-ups running here early; they stay due, for another replica (or a restart) to resume. */
  async stop(): Promise<void> {
    this.stopping.abort(new Error('follow-ups stopped'));
    await this.idle();
  }

  /**
   * Watches the aftermath of a succeeded change (vessel scheduled, gone, ...)
   * under the follow-up lease; where a step ends, its state and outcome are
   * recorded with a `followed` event before the step is yielded.
   */
  async *follow(change: Change, signal?: AbortSignal, resumed = false): AsyncIterable<FollowEvent> {
    const module = operationModule(change.operation);
    if (!module.follow || change.status !== 'succeeded' || !change.result) return;
    // One follow-up at a time per change, on any replica: a resumed one and the click's never both.
    const lease = await holdFollowLease(
      this.core.leaseOptions(),
      change.id,
      uniqueOwner(this.core.o.replicaId, 'follow'),
    );
    if (!lease) return;
    let latest = change;
    try {
      if (resumed) await this.core.publish({ kind: 'resumed', change });
      const steps = module.follow(
        { ...this.core.context(), ...(signal ? { signal } : {}) },
        this.core.applyInput(change),
        change.result,
      );
      for await (const event of steps) {
        // Where a step ends: its state, and the end itself, so a failed rollout does not stay "Done".
        if (event.kind !== 'progress') latest = (await this.record(latest, event)) ?? latest;
        yield event;
      }
    } finally {
      // Cut short by this replica stopping: still due, for housekeeping to resume (follow-due.ts).
      if (!signal?.aborted) {
        await this.core.o.store
          .markFollowedUp(change.id)
          .catch((error: unknown) =>
            this.core.o.logger.warn('could not mark a follow-up over', { changeId: change.id, error }),
          );
      }
      await lease.release();
    }
  }

  /**
   * Records where a step ended: its state as the result's State line, and the
   * follow-up's outcome (`result.facts.followUp`, the worse of what is stored
   * and this: follow-outcome.ts), so the change's message and the requester's
   * Home carry them; with its `followed` event. Undefined when nothing changed.
   */
  private async record(change: Change, event: FollowEvent): Promise<Change | undefined> {
    const result = change.result;
    if (change.status !== 'succeeded' || !result) return undefined;
    const next = nextResult(result, event);
    if (!next) return undefined;
    const updated = await this.core.write(
      (tx) =>
        tx.transitionChange(
          change.id,
          ['succeeded'],
          'succeeded',
          { result: next },
          { now: change.updatedAt },
        ),
      async (record: ChangeRecord | undefined) =>
        record ? { kind: 'followed', change: toChange(record, change.approvals) } : undefined,
    );
    return updated ? toChange(updated, change.approvals) : undefined;
  }
}

/** The result with the step's state and outcome; undefined when it already says both. */
function nextResult(result: Result, event: FollowEvent): Result | undefined {
  let next = result;
  if (event.state !== undefined) {
    const line = { label: 'State', value: event.state };
    const known = next.lines.some((l) => l.label === 'State');
    if (!next.lines.some((l) => l.label === 'State' && l.value === event.state)) {
      const lines = known ? next.lines.map((l) => (l.label === 'State' ? line : l)) : [...next.lines, line];
      next = { ...next, lines };
    }
  }
  const outcome = outcomeOf(event);
  if (outcome) {
    const stored = storedOutcome(next.facts);
    const kept = worseOutcome(stored, outcome);
    if (!stored || JSON.stringify(stored) !== JSON.stringify(kept))
      next = { ...next, facts: { ...next.facts, followUp: kept } };
  }
  return next === result ? undefined : next;
}
