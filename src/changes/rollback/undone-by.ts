/**
 * The restore that sets back an applied change, found by the change's
 * operation in the operations' folders (each says which restore undoes it
 * and builds that restore's request from its undo record).
 */
import { FOLDERS } from '../operations/folders.js';
import type { Restore } from './restore.js';
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
