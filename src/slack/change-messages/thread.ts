/** Where a change's message and replies are: Slack's own record of it (`slack_change_messages`). */
import type { Change } from '../../changes/change.js';
import type { ChangeMessageRecord } from '../../store/types.js';
import type { ChangeMessageDeps } from './deps.js';

/** The change's message as Slack's table has it; undefined before it is posted (or when the store fails: logged). */
export async function messageOf(
  ctx: Pick<ChangeMessageDeps, 'logger' | 'store'>,
  change: Pick<Change, 'id'>,
): Promise<ChangeMessageRecord | undefined> {
  try {
    return (await ctx.store.changeMessages([change.id])).get(change.id);
  } catch (error) {
    ctx.logger.warn('could not read where a change message is', { changeId: change.id, error });
    return undefined;
  }
}

/** The thread of a change's message: the thread it was requested in, else the message's own. */
export function changeThread(change: Change, message: ChangeMessageRecord | undefined): string | undefined {
  return change.origin.threadTs ?? message?.messageTs;
}
