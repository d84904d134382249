/**
 * What a rollback reads and claims in the store, handed to the rollback
 * operation through its context: the applied changes it undoes, the claim one
 * rollback of a change wins, and the audit lines that link both ways.
 */
import type { ChangeOrigin, ChangeStatus } from '../../store/types.js';
import type { Undo } from './undo.js';

/** An earlier change as a rollback sees it. */
export interface LedgerEntry {
  id: string;
  operation: string;
  requester: string;
  status: ChangeStatus;
  origin: ChangeOrigin;
  /** What it did in words (its result summary, or its preview's). */
  summary: string;
  appliedAt?: number;
  undo?: Undo;
  rolledBackBy?: string;
  rolledBackAt?: number;
}

export interface RollbackLedger {
  /** How long after a change applied Roll back is offered (HARBOR_ROLLBACK_DAYS). */
  windowMs: number;
  get(id: string): Promise<LedgerEntry | undefined>;
  /** Changes applied through Harbormaster after `since` that recorded an undo (for naming who moved a target). */
  appliedSince(since: number): Promise<LedgerEntry[]>;
  /** Claims `originalId` for rollback `rollbackId`: true when this rollback holds it now (one of many racing wins). */
  claim(originalId: string, rollbackId: string): Promise<boolean>;
  /** Gives the claim back (the rollback wrote nothing), when `rollbackId` still holds it. */
  release(originalId: string, rollbackId: string): Promise<void>;
  /** Audits on the original that `rollbackId` rolled it back (by the person applying it), so the audit links both ways. */
  noteRolledBack(originalId: string, rollbackId: string): Promise<void>;
}
