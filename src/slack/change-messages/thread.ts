/**
 * Where a change's message and replies are: Slack's own record of it
 * (`slack_change_messages`). A message's place never changes once posted, so
 * each replica also keeps the places it learnt (posted, asked, read) in
 * memory, bounded: a message is still rewritten while the store is away (a
 * settlement held for housekeeping draws "recording pending" at once).
 */
import type { Change } from '../../changes/change.js';
import type { ChangeMessageRecord } from '../../store/types.js';
import type { ChangeMessageDeps } from './deps.js';

/** How many places one replica remembers (the oldest learnt is forgotten first). */
const REMEMBERED = 5_000;

/** Places learnt, per store (one per bot; tests run several bots in a process). */
const places = new WeakMap<object, Map<string, ChangeMessageRecord>>();

function placesOf(store: object): Map<string, ChangeMessageRecord> {
  let known = places.get(store);
  if (!known) {
    known = new Map();
    places.set(store, known);
  }
  return known;
}

/** Remembers where a change's message (or its ask) is, as just written to Slack's table. */
export function rememberPlace(ctx: Pick<ChangeMessageDeps, 'store'>, place: ChangeMessageRecord): void {
  const known = placesOf(ctx.store);
  const merged = { ...known.get(place.changeId), ...place };
  known.delete(place.changeId);
  known.set(place.changeId, merged);
  if (known.size > REMEMBERED) known.delete(known.keys().next().value as string);
}

/**
 * The change's message as Slack's table has it; undefined before it is
 * posted (or when the store fails: logged). `fresh` reads the table even
 * when the place is remembered (what a message shows moves; where it is does not).
 */
export async function messageOf(
  ctx: Pick<ChangeMessageDeps, 'logger' | 'store'>,
  change: Pick<Change, 'id'>,
  fresh = false,
): Promise<ChangeMessageRecord | undefined> {
  const known = placesOf(ctx.store).get(change.id);
  if (known?.messageTs && !fresh) return known;
  try {
    const read = (await ctx.store.changeMessages([change.id])).get(change.id);
    if (read?.messageTs)
      rememberPlace(ctx, {
        changeId: read.changeId,
        channel: read.channel,
        messageTs: read.messageTs,
        ...(read.askTs ? { askTs: read.askTs } : {}),
      });
    return read ?? known;
  } catch (error) {
    ctx.logger.warn('could not read where a change message is', { changeId: change.id, error });
    return known;
  }
}

/** The thread of a change's message: the thread it was requested in, else the message's own. */
export function changeThread(change: Change, message: ChangeMessageRecord | undefined): string | undefined {
  return change.origin.threadTs ?? message?.messageTs;
}
