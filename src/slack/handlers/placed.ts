/**
 * Where Slack placed change messages, for the surfaces that link to them
 * (approvals lists, Home, history, release messages, What changed). The
 * message ts is Slack's own drawing state (`slack_change_messages`), not the
 * change's, so what the domain hands over is placed here, one read a list.
 */
import type { Change } from '../../changes/change.js';
import type { HistoryPage } from '../../changes/history-query.js';
import type { Logger } from '../../runtime/logger.js';
import type { Store } from '../../store/types.js';
import type { PlacedChange } from '../render/permalink.js';

/** `changes` with their messages' ts (absent where none was posted, or when the store cannot say: logged). */
export async function placed<C extends Change>(
  ctx: { store: Pick<Store, 'changeMessages'>; logger: Logger },
  changes: readonly C[],
): Promise<(C & PlacedChange)[]> {
  if (changes.length === 0) return [];
  try {
    const messages = await ctx.store.changeMessages(changes.map((c) => c.id));
    return changes.map((c) => {
      const ts = messages.get(c.id)?.messageTs;
      return ts ? { ...c, messageTs: ts } : c;
    });
  } catch (error) {
    ctx.logger.warn('could not read where change messages are; drawing them without links', { error });
    return [...changes];
  }
}

/** A history page whose changes are placed (their messages linked). */
export async function placedPage(
  ctx: { store: Pick<Store, 'changeMessages'>; logger: Logger },
  page: HistoryPage,
): Promise<HistoryPage> {
  const changes = await placed(
    ctx,
    page.items.map((i) => i.change),
  );
  return { ...page, items: page.items.map((item, i) => ({ ...item, change: changes[i] ?? item.change })) };
}
