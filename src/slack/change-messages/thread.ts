/** Where a change's replies go. */
import type { Change } from '../../changes/change.js';

/** The thread of a change's message: the thread it was requested in, else the message's own. */
export function changeThread(change: Change): string | undefined {
  return change.origin.threadTs ?? change.origin.messageTs;
}
