/**
 * A rollback is a request of the inverse operation (issue 39.3): the folder
 * of the operation that was applied says which operation sets it back and
 * builds that operation's restore request from what its apply recorded
 * (`Undoes`); the inverse operation's folder plans the request (what it does
 * in words, the guard that the target still shows what the change left),
 * applies it (a write guarded again by the API) and verifies it after an
 * interruption (`Restore`). The rollback lifecycle (change.rollback) only
 * claims, orders and words the refusals; it names no operation.
 */
import type { ChangeOperation, Target } from '../../operations/index.js';
import type { Line, OperationContext } from '../operation.js';

/** What an inverse will do, as a preview shows it. */
export interface InverseView {
  target: Target;
  /** One sentence: what the rollback sets back. */
  summary: string;
  /** before -> after, where after is the state before the original change. */
  lines: Line[];
  destructive: boolean;
  warnings: string[];
  notes: string[];
  /** What the guard compares, in words (e.g. "scheduling of eu-central/cloud"). */
  subject: string;
  /** When the inverse writes several targets: the operation and target the policy judges for each. */
  judgements?: { operation: ChangeOperation; target: Target }[];
  /** Targets judged as the original change itself (no other operation writes them): a promotion's Formations. */
  judgedAsOriginal?: Target[];
  /** What the original changed that this rollback does not set back, each with why (the preview and the result name them). */
  notSetBack?: string[];
}

/** What the guard found: the target as the change left it, or (a clause naming it) what it shows now instead. */
export type GuardFinding = { kind: 'unchanged' } | { kind: 'moved'; now: string };

export const moved = (now: string): GuardFinding => ({ kind: 'moved', now });
export const UNCHANGED: GuardFinding = { kind: 'unchanged' };

/** Lines, warnings and notes the forward preview of the same write would show (issue 38). */
export interface InverseEffects {
  lines: Line[];
  warnings: string[];
  notes: string[];
}

export const NO_EFFECTS: InverseEffects = { lines: [], warnings: [], notes: [] };

/** One image a restore writes back: its internal name, `image:tag` as people read it, and its branch. */
export interface ImageBack {
  internal: string;
  label: string;
  branch: string;
}

/** Thrown by `write` when the write's own guard found the target moved: nothing was written. */
export class InverseMovedError extends Error {
  constructor(readonly now: string) {
    super(`the target moved while rolling back: ${now}`);
  }
}

/**
 * How an operation sets back another change, from a request `R` its own
 * folder defines: planned (`view`, `guard`, `effects`, `imagesBack`),
 * applied (`write`), verified (`restored`).
 */
export interface Restore<R> {
  /** What the restore will do, in words, and the target the policy judges. */
  view(r: R): InverseView;
  /** Reads the target: does it still show what the original change left? Reads only. */
  guard(ctx: OperationContext, r: R): Promise<GuardFinding>;
  /** The guarded write; throws InverseMovedError when its own guard finds the target moved. */
  write(ctx: OperationContext, r: R): Promise<void>;
  /** After an interruption: does the target show the state before the original change? Reads only. */
  restored(ctx: OperationContext, r: R): Promise<boolean>;
  /** One key per thing restored: two changes with the same key touched the same target. */
  subjectKey(r: R): string;
  /** What the write does, in the forward preview's words (read from the target as the change left it). */
  effects?(ctx: OperationContext, r: R): Promise<InverseEffects>;
  /** The images the write sets back, each with its branch (asked whether the branch still holds them). */
  imagesBack?(ctx: OperationContext, r: R): Promise<ImageBack[]>;
  /** The environments the write touches, when not only its target's. */
  environments?(r: R): string[];
  /** A refusal the API gives this write (e.g. a taken name) read as the target moved, in words; undefined otherwise. */
  movedBy?(err: unknown, r: R): string | undefined;
}

/** What an applied operation's folder says about its rollback: the restore that sets it back, and its request from the undo. */
export interface Undoes<U, R> {
  restore: Restore<R>;
  request(undo: U): R;
}

/** Types an operation's `Undoes` at its folder, erased for the table the lifecycle reads. */
export function undoneBy<U, R>(restore: Restore<R>, request: (undo: U) => R): Undoes<unknown, unknown> {
  return { restore, request } as Undoes<unknown, unknown>;
}
