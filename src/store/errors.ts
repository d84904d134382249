/** Errors the stores throw, as one class callers (and tests) can rely on. */

/**
 * A database refused a statement (constraint, trigger, ...). better-sqlite3's
 * native addon keeps the SqliteError class of whichever module instance loaded
 * it first, so its errors can fail `instanceof Error` elsewhere; rethrowing as
 * a StoreError gives every caller an ordinary Error with the driver's code.
 */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** Wraps a driver error as a StoreError, keeping its message and code. */
export function toStoreError(err: unknown): StoreError {
  if (err instanceof StoreError) return err;
  const e = err as { message?: unknown; code?: unknown };
  return new StoreError(String(e?.message ?? err), typeof e?.code === 'string' ? e.code : undefined, {
    cause: err,
  });
}

/** `code` of the StoreError ping() throws when the store answers reads but refuses a write. */
export const UNWRITABLE = 'HARBOR_UNWRITABLE';

/** `code` of the StoreError thrown when the SQLite file fails its integrity check at start. */
export const CORRUPT = 'HARBOR_CORRUPT';

/** `code` of the StoreError thrown when a row read back does not decode into its record. */
export const BAD_ROW = 'HARBOR_BAD_ROW';
