/**
 * Settling an apply whose process died. Nothing says when (or whether) its
 * write left: the API may hold it and apply it long after the client is gone.
 * So a read that does not show the change proves nothing yet, exactly as
 * after a write that got no answer in-process: the change becomes "outcome
 * unknown" and housekeeping re-reads it (recheckUnconfirmed) until the write
 * shows or the settle window has passed. The window starts at this first
 * recovery, which is later than any moment the dead process could have sent
 * its write.
 */
import { answerWords } from './answer-words.js';
import type { Change } from './change.js';
import { confirmedResult, type Settlement, unconfirmedFailure } from './settle-outcome.js';
import { whereToLook } from './where-to-look.js';

const INTERRUPTED = { kind: 'interrupted' } as const;

/**
 * The first settlement of a change left `applying` by a dead process, from a
 * read of the API; throws when the API could not be read (a later pass tries again).
 */
export async function settleInterruptedApply(
  change: Change,
  verify: () => Promise<'applied' | 'not_applied'>,
  now: number,
): Promise<Settlement> {
  const verdict = await verify();
  if (verdict === 'applied') {
    return {
      status: 'succeeded',
      result: confirmedResult(
        change,
        `${answerWords(INTERRUPTED)}; a read of ${whereToLook(change)} shows the change is there`,
      ),
    };
  }
  return {
    status: 'unconfirmed',
    failure: unconfirmedFailure(change, INTERRUPTED, 'not_seen', now, true),
  };
}
