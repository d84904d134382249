/**
 * The restore that sets back an applied change, found by the change's
 * operation in the operations' folders (each says which restore undoes it
 * and builds that restore's request from its undo record).
 */
import { FOLDERS } from '../operations/folders.js';
import type { InverseView, Restore } from './restore.js';
import type { Undo } from './undo.js';

/** A restore with its request: what a rollback plans and applies for one original. */
export interface Inverse {
  restore: Restore<unknown>;
  request: unknown;
}

/** The inverse of `operation`'s applied change recorded as `undo`; undefined when its folder names none. */
export function inverseOf(operation: string, undo: Undo): Inverse | undefined {
  const entry = FOLDERS.find((e) => e.id === operation);
  const undoes = entry && 'undo' in entry ? entry.undo : undefined;
  return undoes ? { restore: undoes.restore, request: undoes.request(undo) } : undefined;
}

/** The restore that sets back `item`'s original, with its request (built by the original's folder from its undo). */
export function inverseFor(item: { operation: string; undo: Undo }): Inverse {
  const inverse = inverseOf(item.operation, item.undo);
  if (!inverse) throw new Error(`${item.operation} names no restore for its applied changes`);
  return inverse;
}

/** The inverse's view: what it does in words and the target the policy judges. */
export function viewOf(item: { operation: string; undo: Undo }): InverseView {
  const { restore, request } = inverseFor(item);
  return restore.view(request);
}

/** The key of the target an applied change touched, when its folder names a restore. */
export function subjectKeyOf(entry: { operation: string; undo?: Undo }): string | undefined {
  const inverse = entry.undo ? inverseOf(entry.operation, entry.undo) : undefined;
  return inverse?.restore.subjectKey(inverse.request);
}
