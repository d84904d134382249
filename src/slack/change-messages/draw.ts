/**
 * Posting and rewriting a change's message. The message lives where the change
 * was requested (its origin: channel, thread); its ts and what it shows are
 * Slack's own state (`slack_change_messages`). Every state change rewrites it
 * in place, through the gateway's paced redraw, so it always shows the truth
 * and never keeps a live button on a change that can no longer be acted on.
 */
import { type Change, FINAL_STATUSES } from '../../changes/change.js';
import { renderChange } from '../render/change-message.js';
import type { ChangeLinks } from '../render/change-rollback-offer.js';
import { permalink } from '../render/permalink.js';
import { inThread } from '../runtime/thread.js';
import type { ChangeMessageDeps } from './deps.js';
import { messageOf, rememberPlace } from './thread.js';

/** Posts the change's message in its origin channel (and thread) and records where it is in Slack's table. */
export async function postChangeMessage(
  ctx: Pick<ChangeMessageDeps, 'clock' | 'slack' | 'store'>,
  change: Change,
): Promise<string> {
  const message = renderChange(change, ctx.clock.now());
  const posted = await ctx.slack.chat.postMessage({
    channel: change.origin.channel,
    ...inThread(change.origin.threadTs),
    text: message.text,
    blocks: message.blocks,
    unfurl_links: false,
  });
  const ts = posted.ts as string;
  rememberPlace(ctx, { changeId: change.id, channel: change.origin.channel, messageTs: ts });
  await ctx.store.placeChangeMessage(change.id, change.origin.channel, ts);
  return ts;
}

/** Slack errors saying the message can never be updated again. */
const GONE = new Set(['message_not_found', 'channel_not_found', 'cant_update_message', 'is_archived']);

/**
 * The newest state asked for of each message, per bot (its gateway's redraw),
 * until a rewrite draws it. The gateway keeps one rewrite of a message under
 * way at a time, and a rewrite still waiting for its slot is replaced by a
 * newer one (slack/gateway/message-queue.ts): what is drawn when the slot
 * comes is the newest state then, so a burst of late clicks on a finished
 * change costs its message one more update, not one each, in a chat.update
 * budget the workspace shares.
 */
const pending = new WeakMap<object, Map<string, Change>>();

/**
 * Rewrites the change's message to its current state; logs (does not throw)
 * when Slack refuses. A final state that reached the message is recorded as
 * drawn; one that did not (Slack down after the SDK's own retries) is redrawn
 * by housekeeping, so a finished change never keeps live buttons. Resolves
 * once a rewrite showing this state or a newer one has been tried.
 */
export function rewriteChangeMessage(
  ctx: Pick<ChangeMessageDeps, 'clock' | 'logger' | 'redraw' | 'store'>,
  change: Change,
  /**
   * What the rewrite is for when slots are short. By default "Applying…" is on the way to an
   * outcome and every other state is one (or someone can act on it); a follow-up's end redrawn on
   * a message that shows its outcome already is progress.
   */
  purpose: 'outcome' | 'progress' = change.status === 'applying' ? 'progress' : 'outcome',
): Promise<void> {
  // One message per change: keyed by the change, so the rewrite is counted in flight before its ts is read.
  const key = change.id;
  const asked = inFlight.get(ctx.redraw) ?? new Map<string, Set<Promise<void>>>();
  inFlight.set(ctx.redraw, asked);
  const mine = asked.get(key) ?? new Set<Promise<void>>();
  asked.set(key, mine);
  const run = rewrite(ctx, change, key, purpose).finally(() => {
    mine.delete(run);
    if (mine.size === 0 && asked.get(key) === mine) asked.delete(key);
  });
  mine.add(run);
  return run;
}

/**
 * The rewrites of each message asked for and not yet tried, per bot (its
 * gateway's redraw): housekeeping's repair leaves a message with one to it,
 * and a notice about a change waits for its own message's rewrites only.
 */
const inFlight = new WeakMap<object, Map<string, Set<Promise<void>>>>();

async function rewrite(
  ctx: Pick<ChangeMessageDeps, 'clock' | 'logger' | 'redraw' | 'store'>,
  change: Change,
  key: string,
  purpose: 'outcome' | 'progress',
): Promise<void> {
  // Not posted (yet): nothing to rewrite, and no slot spent on it.
  const ts = (await messageOf(ctx, change))?.messageTs;
  if (!ts) return;
  const latest = pending.get(ctx.redraw) ?? new Map<string, Change>();
  pending.set(ctx.redraw, latest);
  const channel = change.origin.channel;
  const held = latest.get(key);
  // A state never gives way to an older one (a lower version) asked for later.
  if (!held || change.version >= held.version) latest.set(key, change);
  let drawn: Change | undefined;
  try {
    await ctx.redraw({
      purpose,
      channel,
      key,
      args: async () => {
        // Drawn already by a rewrite under way when this one was asked for: nothing newer to show.
        const newest = latest.get(key);
        if (!newest) return undefined;
        latest.delete(key);
        drawn = newest;
        const message = renderChange(newest, ctx.clock.now(), await linksOf(ctx, newest));
        return { channel, ts, text: message.text, blocks: message.blocks };
      },
    });
  } catch (err) {
    // A rewrite folded into another hears its answer too; the one whose state was drawn tells it.
    if (!drawn) return;
    // A message that is gone can not show buttons any more: nothing is left to repair.
    const gone = GONE.has(String((err as { data?: { error?: unknown } }).data?.error));
    ctx.logger.warn(
      gone
        ? 'a change message is gone; not redrawing it'
        : 'could not rewrite a change message; housekeeping will redraw it',
      { changeId: drawn.id, error: err },
    );
    if (!gone) return;
  }
  // A settlement not yet stored is drawn again when it is (housekeeping); the store could not take the mark now.
  if (drawn && FINAL_STATUSES.includes(drawn.status) && !drawn.recordPending)
    await ctx.store.markMessageDrawn(drawn.id, drawn.status);
}

/** Whether a rewrite of the change's message is queued or under way here (housekeeping's repair leaves it to that). */
export function redrawQueued(ctx: Pick<ChangeMessageDeps, 'redraw'>, change: Change): boolean {
  return inFlight.get(ctx.redraw)?.has(change.id) ?? false;
}

/**
 * Resolves once every rewrite of the change's message asked for so far has
 * been tried (drawn or refused); at once when none is queued. A notice about
 * the change waits for this, so its message says what the notice tells
 * before the notice is posted, without waiting for other messages' redraws.
 */
export async function redrawTried(ctx: Pick<ChangeMessageDeps, 'redraw'>, change: Change): Promise<void> {
  const asked = inFlight.get(ctx.redraw)?.get(change.id);
  // Tried is enough: a rewrite that failed (a store that could not take the mark) is not waited for again.
  if (asked) await Promise.allSettled([...asked]);
}

/**
 * The messages this change's message links to: the rollback that rolled it
 * back, and who asked for it. A store that fails here costs the link and the
 * name, not the redraw (the id is still named).
 */
async function linksOf(
  ctx: Pick<ChangeMessageDeps, 'logger' | 'store'>,
  change: Change,
): Promise<ChangeLinks> {
  if (!change.rolledBackBy) return {};
  try {
    const rollback = await ctx.store.getChange(change.rolledBackBy);
    const placed = rollback && (await ctx.store.changeMessages([rollback.id])).get(rollback.id);
    const { channel, threadTs } = rollback?.origin ?? {};
    const messageTs = placed?.messageTs;
    return {
      ...(channel && messageTs ? { rollback: permalink(channel, messageTs, threadTs) } : {}),
      ...(rollback ? { rollbackBy: rollback.requester } : {}),
    };
  } catch (err) {
    ctx.logger.warn('could not read the rollback of a change; drawing it without the link', {
      changeId: change.id,
      error: err,
    });
    return {};
  }
}
