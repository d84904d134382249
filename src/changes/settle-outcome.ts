/**
 * Turning an unclear apply into a truthful outcome. After a failure that may
 * hide a write, the API is read (the operation's verify): what the read shows
 * is what the user is told. When the read cannot settle it, the change stays
 * `applying`, marked unconfirmed, with a message saying so and where to look;
 * housekeeping reads again on every pass until the answer is known.
 */
import { formatSpan } from '../format/duration.js';
import { ApiError } from '../gamefabric/errors.js';
import type { Logger } from '../runtime/logger.js';
import type { Change, ChangeFailure } from './change.js';
import type { Result } from './operation.js';
import { clarityOf, describeAnswer } from './unclear-outcome.js';
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
  const answer = describeAnswer(err);
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
      result: confirmedResult(change, `${answer}; a read of ${where} shows the change is there`),
    };
  if (verdict === 'not_applied' && clarity === 'answered') {
    return {
      status: 'failed',
      failure: {
        ...failure,
        message: `${err instanceof ApiError ? `${capitalize(answer)}.` : withoutNothingChanged(failure.message)} Harbormaster then read ${where}: the change is not there, so nothing was changed. Request it again to retry.`,
      },
    };
  }
  return {
    status: 'unconfirmed',
    failure: unconfirmedFailure(
      change,
      answer,
      verdict === 'unknown'
        ? 'the API could not be read to check'
        : 'a read does not show the change yet (the request may still land)',
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
  const previous = change.error as ChangeFailure;
  const where = whereToLook(change);
  const verdict = await verify().catch(() => 'unknown' as const);
  if (verdict === 'applied') {
    return {
      status: 'succeeded',
      result: confirmedResult(
        change,
        `${previous.answer ?? 'the API answered unclearly'}; a later read of ${where} shows the change is there`,
      ),
    };
  }
  const since = previous.since ?? change.updatedAt;
  if (verdict === 'not_applied' && (!previous.mayStillLand || now - since >= settleMs)) {
    return {
      status: 'failed',
      failure: {
        message: `${capitalize(previous.answer ?? 'the API answered unclearly')}. Reads of ${where} over the following ${formatSpan(Math.max(60_000, now - since))} never showed the change, so nothing was changed. Request it again to retry.`,
        kind: 'api',
      },
    };
  }
  return undefined;
}

function unconfirmedFailure(
  change: Change,
  answer: string,
  check: string,
  now: number,
  mayStillLand: boolean,
): ChangeFailure {
  return {
    message: `Could not confirm whether this took effect: ${answer}, and ${check}. Look at ${whereToLook(change)} before retrying; Harbormaster keeps checking and will update this message.`,
    kind: 'unconfirmed',
    since: now,
    mayStillLand,
    answer,
  };
}

function confirmedResult(change: Change, how: string): Result {
  return {
    summary: `${change.preview.summary}: done`,
    lines: [{ label: 'Confirmed', value: how }],
    facts: {},
  };
}

/** describeFailure's network wording promises "nothing was changed"; here only the read may say so. */
function withoutNothingChanged(message: string): string {
  const trimmed = message.replace(/;? nothing was changed\.?/i, '.').replace(/\.\.$/, '.');
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
