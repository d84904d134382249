/**
 * The embedded store's start-up integrity check. A partly corrupted SQLite
 * file can still answer `SELECT 1` and most reads, then fail (or silently
 * lose rows) on the one page a change or its audit lives on. SQLite's
 * `quick_check` reads every page once, which is cheap at this store's size,
 * so the bot refuses to start on a damaged file instead of running on it.
 */
import type Database from 'better-sqlite3';
import { CORRUPT, StoreError, toStoreError } from './errors.js';

/** How many of quick_check's problem lines the message quotes. */
const QUOTED_PROBLEMS = 3;

/** Throws a StoreError (code CORRUPT) naming `file` and what is wrong unless quick_check says ok. */
export function assertSqliteIntact(db: Database.Database, file: string): void {
  let problems: string[];
  try {
    // Each row may hold several lines under a "*** in database main ***" heading; one line each.
    problems = (db.pragma('quick_check') as { quick_check: string }[])
      .flatMap((row) => row.quick_check.split('\n'))
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('***'));
  } catch (err) {
    throw damaged(file, toStoreError(err).message, err);
  }
  if (problems.length === 1 && problems[0] === 'ok') return;
  const quoted = problems.slice(0, QUOTED_PROBLEMS).join('; ');
  const more = problems.length > QUOTED_PROBLEMS ? ` and ${problems.length - QUOTED_PROBLEMS} more` : '';
  throw damaged(file, `${quoted}${more}`);
}

/** Whether a driver error means the file itself is damaged (not, say, busy or missing). */
export function isCorruption(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || code === CORRUPT;
}

/** The start-up refusal for a damaged file, with what an operator can do about it. */
export function damaged(file: string, detail: string, cause?: unknown): StoreError {
  if (cause instanceof StoreError && cause.code === CORRUPT) return cause;
  return new StoreError(
    `the SQLite store ${file} is damaged (${detail}). Harbormaster will not run on it, so nothing more is lost: ` +
      'stop every process using it, then restore it from a backup, or move it aside to start with an empty store ' +
      '(pending changes and the audit log in the old file are then not carried over).',
    CORRUPT,
    cause === undefined ? undefined : { cause },
  );
}
