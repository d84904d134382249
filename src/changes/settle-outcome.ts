/**
 * Turning an unclear apply into a truthful outcome. After a failure that may
 * hide a write, the API is read (the operation's verify): what the read shows
 * is what the user is told. When the read cannot settle it, the change stays
 * `applying`, marked unconfirmed, with a message saying so and where to look;
 * housekeeping reads again on every pass until the answer is known.
 */
import type { Logger } from '../runtime/logger.js';
import { answerWords } from './answer-words.js';
import type { Change } from './change.js';
import type { ChangeFailure, UnclearAnswer } from './failure.js';
import type { Result } from './operation.js';
import { clarityOf, unclearAnswer } from './unclear-outcome.js';
import { whereToLook } from './where-to-look.js';

/**
 * How long a write that got no answer can still land. Requests time out
 * within a minute and gateways give up sooner, so a write not seen after this
 * long will not appear any more.
 */
export const IN_FLIGHT_SETTLE_MS = 10 * 60_000;

/** What the change becomes. */
export type Settlement =
  | { status: 'succeeded'; result: Result }
  | { status: 'failed'; failure: ChangeFailure }
  | { status: 'unconfirmed'; failure: ChangeFailure };

type Verify = () => Promise<'applied' | 'not_applied'>;

/**
 * The outcome of an apply that threw `err`; `failure` is how describeFailure
 * put it. Clear failures stand; unclear ones are decided by reading the API.
 */
export async function settleFailedApply(
  change: Change,
  err: unknown,
  failure: ChangeFailure,
  verify: Verify,
  now: number,
  logger: Logger,
): Promise<Settlement> {
  const clarity = clarityOf(err);
  if (clarity === 'clear') return { status: 'failed', failure };
  // An unexpected error was logged by describeFailure under this id; the messages name it.
  const answer = unclearAnswer(err, 'errorId' in failure ? failure.errorId : undefined);
  const where = whereToLook(change);
  const verdict = await verify().catch((readError: unknown) => {
    logger.warn('could not read the API to settle an unclear apply', {
      changeId: change.id,
      error: readError,
    });
    return 'unknown' as const;
  });
  if (verdict === 'applied')
    return {
      status: 'succeeded',
      result: confirmedResult(change, `${answerWords(answer)}; a read of ${where} shows the change is there`),
    };
  if (verdict === 'not_applied' && clarity === 'answered') {
    return { status: 'failed', failure: { kind: 'not_applied', answer, where } };
  }
  return {
    status: 'unconfirmed',
    failure: unconfirmedFailure(
      change,
      answer,
      verdict === 'unknown' ? 'unreadable' : 'not_seen',
      now,
      verdict === 'not_applied' || clarity === 'in_flight',
    ),
  };
}

/**
 * Reads an unconfirmed change again. Undefined while it is still open (the
 * stored message stays as it is); a settlement once the read decides it.
 */
export async function recheckUnconfirmed(
  change: Change,
  verify: Verify,
  now: number,
  settleMs = IN_FLIGHT_SETTLE_MS,
): Promise<Settlement | undefined> {
  const previous = change.error?.kind === 'unconfirmed' ? change.error : undefined;
  const answer: UnclearAnswer = previous?.answer ?? { kind: 'earlier', text: 'the API answered unclearly' };
  const where = whereToLook(change);
  const verdict = await verify().catch(() => 'unknown' as const);
  if (verdict === 'applied') {
    return {
      status: 'succeeded',
      result: confirmedResult(
        change,
        `${answerWords(answer)}; a later read of ${where} shows the change is there`,
      ),
    };
  }
  const since = previous?.since ?? change.updatedAt;
  if (verdict === 'not_applied' && (!previous?.mayStillLand || now - since >= settleMs)) {
    return {
      status: 'failed',
      failure: { kind: 'never_landed', answer, where, overMs: Math.max(60_000, now - since) },
    };
  }
  return undefined;
}

/** The stored failure of a change whose outcome is not known yet (housekeeping re-reads it). */
export function unconfirmedFailure(
  change: Change,
  answer: UnclearAnswer,
  check: 'unreadable' | 'not_seen',
  now: number,
  mayStillLand: boolean,
): ChangeFailure {
  return { kind: 'unconfirmed', answer, check, where: whereToLook(change), since: now, mayStillLand };
}

/** The result of a change a read (not the write's answer) showed done; `how` says which read. */
export function confirmedResult(change: Change, how: string): Result {
  return {
    summary: `${change.preview.summary}: done`,
    lines: [{ label: 'Confirmed', value: how }],
    facts: {},
  };
}
