/**
 * Read-modify-write with a guard: read the object, build a patch that pins
 * what the change relies on, and send it. Two guards exist. A JSON Patch
 * `test` (Formations, Regions) pins a list or an index's name. A merge patch
 * (Armadas, ArmadaSets) carries the `metadata.revision` read, which the
 * service is assumed to check like Kubernetes' resourceVersion (inferred: no
 * public source says GameFabric does). Either way a refused patch changes
 * nothing; then we read again and rebuild from the new state, never reusing
 * an index or a list computed from the old one.
 */
import { ApiError, ConcurrentModificationError } from './errors.js';

const DEFAULT_GUARDED_ATTEMPTS = 5;

/**
 * Conflicts where only the revision moved (a status write: the spec we send
 * is as we read it) are sent again without spending the attempts above, up
 * to this many, so a fleet whose status is written every few seconds can be
 * patched, and an API that moves the revision on every read cannot loop us.
 */
const MAX_REVISION_ONLY_RETRIES = 20;

interface GuardedStep<R> {
  /**
   * What the patch relies on and sends as read, serialised, without the
   * revision: equal guards on two reads mean the same patch would be built.
   */
  guard: string;
  /** The `metadata.revision` the patch carries as its precondition, when it carries one. */
  revision?: string | undefined;
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

/** What a guarded patch took: patches sent, and how many of the resends were for a moved revision only. */
export interface GuardedOutcome<R> {
  result: R;
  attempts: number;
  revisionOnlyRetries: number;
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

/**
 * Runs read-build-patch rounds until a patch applies. A refusal after which
 * only the revision moved is sent again on the new revision (not a concurrent
 * change); one after which what we send moved counts against `maxAttempts`,
 * then ConcurrentModificationError; one after which nothing moved is passed on.
 */
export async function patchWithGuard<R>(input: GuardedPatchInput<R>): Promise<GuardedOutcome<R>> {
  const maxAttempts = Math.max(1, input.maxAttempts ?? DEFAULT_GUARDED_ATTEMPTS);
  let attempts = 0;
  let concurrent = 0;
  let revisionOnlyRetries = 0;
  let last: { error: ApiError; guard: string; revision: string | undefined } | undefined;
  for (;;) {
    const step = await input.prepare();
    if (last) {
      const sameSpec = last.guard === step.guard;
      const revisionMoved = step.revision !== undefined && step.revision !== last.revision;
      // Nothing the patch relies on has changed, so the 409/422 was about something else (say, an invalid
      // value): repeating would fail the same way, and calling it a concurrent change would mislead.
      if (sameSpec && !revisionMoved) throw last.error;
      if (sameSpec) {
        revisionOnlyRetries += 1;
        if (revisionOnlyRetries > MAX_REVISION_ONLY_RETRIES)
          throw new ConcurrentModificationError(input.kind, input.name, attempts, last.error);
      } else {
        concurrent += 1;
        if (concurrent >= maxAttempts)
          throw new ConcurrentModificationError(input.kind, input.name, attempts, last.error);
      }
    }
    attempts += 1;
    try {
      return { result: await step.apply(), attempts, revisionOnlyRetries };
    } catch (error) {
      if (!isFailedTest(error)) throw error;
      // Without a revision every refusal is a moved guard: with no attempt to spare, reading again is pointless.
      if (step.revision === undefined && concurrent + 1 >= maxAttempts)
        throw new ConcurrentModificationError(input.kind, input.name, attempts, error);
      last = { error, guard: step.guard, revision: step.revision };
    }
  }
}
