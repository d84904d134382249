/**
 * A click's `clicked` event (issue 39). A click that writes its change
 * (applied, failed, unconfirmed, scheduled, rejected, cancelled) commits the
 * event in the same transaction as that write, so the outbox holds it if and
 * only if the write happened; a click that wrote nothing (refused, stale, an
 * approval recorded short of the count) is published after it, as before
 * (engine.ts). `committed` says which: set once the write's transaction, with
 * its event, has committed.
 */
import type { ChangeRecord, TransactionStore } from '../../store/types.js';
import type { ClickOutcome } from '../change.js';
import type { ChangeEvent } from '../events.js';
import type { EngineCore } from './core.js';
import type { ClickInput } from './options.js';

export interface ClickTold {
  /** Who clicked. */
  by: string;
  /** The click ended a release (its thread says so instead of the change's). */
  releaseEnd?: true;
  /** The event committed with the click's write (nothing is left to publish). */
  committed: boolean;
}

/** A click's telling, before anything is written. */
export function clickTold(input: ClickInput): ClickTold {
  return { by: input.user, ...(input.releaseEnd ? { releaseEnd: true } : {}), committed: false };
}

/** The `clicked` event telling `outcome`. */
export function clickedEvent(told: ClickTold, outcome: ClickOutcome): ChangeEvent {
  return { kind: 'clicked', outcome, by: told.by, ...(told.releaseEnd ? { releaseEnd: true } : {}) };
}

/**
 * The click's write (`work`) with its `clicked` event in one transaction: the
 * outcome `outcomeOf` the written record. Undefined (nothing written, nothing
 * told) when `work` moved nothing; then the caller explains why.
 */
export async function writeClick(
  core: EngineCore,
  told: ClickTold,
  work: (tx: TransactionStore) => Promise<ChangeRecord | undefined>,
  outcomeOf: (record: ChangeRecord, tx: TransactionStore) => Promise<ClickOutcome>,
): Promise<ClickOutcome | undefined> {
  let outcome: ClickOutcome | undefined;
  const record = await core.write(work, async (written, tx) => {
    if (!written) return undefined;
    outcome = await outcomeOf(written, tx);
    return clickedEvent(told, outcome);
  });
  if (!record || !outcome) return undefined;
  told.committed = true;
  return outcome;
}
