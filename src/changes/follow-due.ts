/**
 * Whether an applied change still owes its follow-up. From the moment an
 * apply is recorded as succeeded, a change whose operation follows up carries
 * `result.facts.follow: 'due'`; a follow-up that ran to its end (or stopped on
 * an error) makes it 'over'. A follow-up cut short by its replica stopping (a
 * deploy, a crash) leaves it 'due', and housekeeping resumes it, so a rollout
 * confirmed just before a deploy still gets its end said in its thread.
 * Changes recorded before the marker existed carry neither and are never
 * resumed: their follow-ups may well have ended, and saying them twice is noise.
 */
import type { Change } from './change.js';
import type { Result } from './operation.js';
import { operationModule } from './operations/index.js';

/** `result` as recorded for a succeeded apply of `operation`: marked due when the operation follows up. */
export function withFollowDue(result: Result, operation: Change['operation']): Result {
  return operationModule(operation).follow
    ? { ...result, facts: { ...result.facts, follow: 'due' } }
    : result;
}

/** `result` once its follow-up is over. */
export function withFollowOver(result: Result): Result {
  return { ...result, facts: { ...result.facts, follow: 'over' } };
}

/** Whether `change` is applied and its follow-up is still due (never ran to its end). */
export function followDue(change: Pick<Change, 'status' | 'result'>): boolean {
  return change.status === 'succeeded' && change.result?.facts.follow === 'due';
}
