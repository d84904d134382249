/**
 * Read-modify-write with a JSON Patch `test` as the guard: read the object,
 * build operations whose `test` pins what the change relies on (a list, an
 * index's name), and send them. The service applies a patch atomically, so a
 * failed test changes nothing; then we read again and rebuild from the new
 * state, never reusing an index computed from the old one.
 */
import { ApiError, ConcurrentModificationError } from './errors.js';

const DEFAULT_GUARDED_ATTEMPTS = 5;

interface GuardedStep<R> {
  /** What the `test` operations pin, serialised; equal guards on two reads mean the test would pass again. */
  guard: string;
  /** Sends the patch built from this read. */
  apply(): Promise<R>;
}

interface GuardedPatchInput<R> {
  kind: string;
  name: string;
  maxAttempts?: number | undefined;
  /** Reads the current object and builds the patch (or throws a domain error, e.g. not found). */
  prepare(): Promise<GuardedStep<R>>;
}

/**
 * A failed `test` answers 422 (Unprocessable) or 409 (Conflict), depending on
 * the server, always with a Status body naming the reason. A bare 409 (a
 * gateway's plain text) proves nothing about the patch: it may even have been
 * applied, so it is not taken for a failed test and re-read into a second patch.
 */
function isFailedTest(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    (error.status === 409 || error.status === 422) &&
    error.reason !== undefined &&
    error.reason !== 'InvalidResponse'
  );
}

/** Runs read-build-patch rounds until a patch applies; ConcurrentModificationError after maxAttempts. */
export async function patchWithGuard<R>(
  input: GuardedPatchInput<R>,
): Promise<{ result: R; attempts: number }> {
  const maxAttempts = Math.max(1, input.maxAttempts ?? DEFAULT_GUARDED_ATTEMPTS);
  let last: { error: ApiError; guard: string } | undefined;
  for (let attempt = 1; ; attempt++) {
    const step = await input.prepare();
    // Nothing the test checks has changed, so the 409/422 was about something else (say, an invalid value):
    // repeating would fail the same way, and calling it a concurrent change would mislead.
    if (last && last.guard === step.guard) throw last.error;
    try {
      return { result: await step.apply(), attempts: attempt };
    } catch (error) {
      if (!isFailedTest(error)) throw error;
      if (attempt >= maxAttempts)
        throw new ConcurrentModificationError(input.kind, input.name, attempt, error);
      last = { error, guard: step.guard };
    }
  }
}
