/**
 * The change operations' half of their descriptors, by operation id: the
 * request's zod schema and the module that plans and applies it, each from
 * its folder (changes/operations/<id>/index.ts, listed in folders.ts). The
 * rest of each descriptor (words, help, form) is in src/operations/catalogue.ts;
 * the compiler checks this table has every change operation of it, and no other.
 */
import type { z } from 'zod';
import type { ChangeOperation } from '../../operations/index.js';
import type { OperationModule } from '../operation.js';
import { changeRollbackEntry } from './change.rollback/index.js';
import { FOLDERS } from './folders.js';

const ENTRIES = [...FOLDERS, changeRollbackEntry] as const;
type Entry = (typeof ENTRIES)[number];
type Table = { [E in Entry as E['id']]: E };

export const CHANGE_TABLE = Object.fromEntries(ENTRIES.map((e) => [e.id, e])) as unknown as Table;

/** Compiles only when the folders hold exactly the catalogue's change operations. */
const complete: [Exclude<ChangeOperation, keyof Table>, Exclude<keyof Table, ChangeOperation>] extends [
  never,
  never,
]
  ? true
  : never = true;
void complete;

/** What a command or a form hands the engine for operation `K`. */
export type OperationInput<K extends ChangeOperation> = z.input<Table[K]['schema']>;

/** The validated request operation `K` works on. */
export type OperationRequest<K extends ChangeOperation> = z.output<Table[K]['schema']>;

/** The module for an operation id. */
export function operationModule(id: ChangeOperation): OperationModule<unknown> {
  // Each module is typed by its own request; the engine only passes it what its own parse() returned.
  return CHANGE_TABLE[id].module as unknown as OperationModule<unknown>;
}
