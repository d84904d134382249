/**
 * The types the compiler links through each change operation's zod schema
 * (the schemas are in src/changes/operations/index.ts, beside their
 * modules): a command or a form produces `OperationInput<K>` (what the
 * schema reads), the operation works on `OperationRequest<K>` (what it
 * returns). The engine validates every input with the schema again, since it
 * also arrives from release buttons, stored metadata and the store.
 */
import type { ChangeOperation } from '../../operations/index.js';
import type { OperationInput } from '../operations/index.js';

export type { OperationInput, OperationRequest } from '../operations/index.js';

/** An operation with its input, as one value: the compiler checks the input against that operation's schema. */
export type ChangeInput = {
  [K in ChangeOperation]: { operation: K; input: OperationInput<K> };
}[ChangeOperation];
