/**
 * Where in the hosting API a person can see whether a change took effect:
 * named in "could not confirm" messages, so nobody retries blindly.
 */
import { type ChangeOperation, describe } from '../operations/index.js';

/** The parts of a Change that name what it acts on (a shape of its own, so change.ts can use it). */
interface ChangeTarget {
  operation: ChangeOperation;
  request: unknown;
  applyToken: string;
  preview: { summary: string };
}

/** The object to look at for `change`, e.g. "formation lobby in environment dev". */
export function whereToLook(change: ChangeTarget): string {
  const r = (change.request ?? {}) as Record<string, unknown>;
  const look = describe(change.operation).whereToLook;
  return look ? look((key) => String(r[key] ?? '?'), change.applyToken) : change.preview.summary;
}
