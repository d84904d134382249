/**
 * Whether an applied change still owes its follow-up. When an apply is
 * recorded as succeeded, a change whose operation follows up is marked
 * `due` (the store's followState); a follow-up that ran to its end (or
 * stopped on an error) marks it `over`, as bookkeeping that leaves the
 * change's version alone. A follow-up cut short by its replica stopping (a
 * deploy, a crash) leaves it `due`, and housekeeping resumes it, so a rollout
 * confirmed just before a deploy still gets its end said in its thread.
 * Changes recorded before the mark existed have none and are never resumed:
 * their follow-ups may well have ended, and saying them twice is noise.
 */
import type { FollowState } from '../store/types.js';
import type { Change } from './change.js';
import { operationModule } from './operations/index.js';

/** The follow state a succeeded apply of `operation` is recorded with: due when it follows up. */
export function followStateAtApply(operation: Change['operation']): { followState?: FollowState } {
  return operationModule(operation).follow ? { followState: 'due' } : {};
}
