/**
 * What an operation's folder (changes/operations/<id>/index.ts) declares:
 * its id (from its `id.ts`), the zod schema of its request, the module that
 * plans and applies it, and, when its applied changes can be rolled back,
 * the restore that sets one back with the request built from its undo
 * record (rollback/restore.ts). The change table (index.ts) lists the
 * folders; nothing else is told about a new operation.
 */
import type { z } from 'zod';
import type { ChangeOperation } from '../../operations/index.js';
import type { Undoes } from '../rollback/restore.js';

export interface OperationEntry {
  id: ChangeOperation;
  schema: z.ZodType;
  /** The OperationModule of the schema's output (typed by its own request). */
  module: unknown;
  /** How its applied changes are set back: absent when its descriptor offers no rollback. */
  undo?: Undoes<unknown, unknown>;
}

/** An operation's entry, its id kept as the literal its folder writes. */
export function operationEntry<const E extends OperationEntry>(entry: E): E {
  return entry;
}
