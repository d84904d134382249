/**
 * What a guarded fleet write met between its read and its patch, as a result
 * line: another writer's change to what it sends (re-read, built again), or
 * only a moved revision with what it sends unchanged (a status write, say:
 * the same patch sent again on the new revision, no concurrent change).
 */
import { rereads } from '../format/english.js';
import type { Line } from './operation.js';

/** The note for a write of `noun` that took `attempts` patches; none when the first one applied. */
export function guardedWriteLines(
  noun: string,
  w: { attempts: number; revisionOnlyRetries: number },
): Line[] {
  const concurrent = w.attempts - 1 - w.revisionOnlyRetries;
  const said: string[] = [];
  if (concurrent > 0) said.push(`the ${noun} changed meanwhile; re-read it ${rereads(concurrent)}`);
  if (w.revisionOnlyRetries > 0) {
    said.push(
      `its revision moved ${rereads(w.revisionOnlyRetries)} with nothing this change sends changed (a status write, say); the patch was sent again on the new revision`,
    );
  }
  return said.length > 0 ? [{ label: 'Note', value: said.join('; ') }] : [];
}
