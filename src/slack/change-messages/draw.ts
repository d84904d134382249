/**
 * Posting and rewriting a change's message. The message lives where the change
 * was requested (its origin: channel, thread); its ts and what it shows are
 * Slack's own state (`slack_change_messages`). Every state change rewrites it
 * in place, so it always shows the truth and never keeps a live button on a
 * change that can no longer be acted on.
 */
import { type Change, FINAL_STATUSES } from '../../changes/change.js';
import { type ChangeLinks, renderChange } from '../render/change-message.js';
import { permalink } from '../render/permalink.js';
import { SerialByKey } from '../runtime/serial.js';
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
 * Redraws waiting for a message, per bot (its Slack client): one rewrite of a
 * message at a time, and the requests that pile up meanwhile fold into one
 * that draws the newest of the states asked for. A burst of late clicks on a
 * finished change thus costs its message one more update, not one each, in a
 * chat.update budget the workspace shares.
 */
const redraws = new WeakMap<object, { serial: SerialByKey; latest: Map<string, Change> }>();

/**
 * Rewrites the change's message to its current state; logs (does not throw)
 * when Slack refuses. A final state that reached the message is recorded as
 * drawn; one that did not (Slack down after the SDK's own retries) is redrawn
 * by housekeeping, so a finished change never keeps live buttons. Resolves
 * once a rewrite showing this state or a newer one has been tried.
 */
export function rewriteChangeMessage(
  ctx: Pick<ChangeMessageDeps, 'clock' | 'logger' | 'slack' | 'store'>,
  change: Change,
): Promise<void> {
  const own = redraws.get(ctx.slack) ?? { serial: new SerialByKey(), latest: new Map<string, Change>() };
  redraws.set(ctx.slack, own);
  // One message per change: keyed by the change, so the rewrite is queued before its ts is read.
  const key = change.id;
  const held = own.latest.get(key);
  // A state never gives way to an older one (a lower version) asked for later.
  if (!held || change.version >= held.version) own.latest.set(key, change);
  return own.serial.run(key, async () => {
    const newest = own.latest.get(key) ?? change;
    own.latest.delete(key);
    await drawChange(ctx, newest);
  });
}

/** Whether a rewrite of the change's message is queued or under way here (housekeeping's repair leaves it to that). */
export function redrawQueued(ctx: Pick<ChangeMessageDeps, 'slack'>, change: Change): boolean {
  return redraws.get(ctx.slack)?.serial.busy(change.id) ?? false;
}

/**
 * Resolves once every rewrite of the change's message asked for so far has
 * been tried (drawn or refused); at once when none is queued. A notice about
 * the change waits for this, so its message says what the notice tells
 * before the notice is posted, without waiting for other messages' redraws.
 */
export function redrawTried(ctx: Pick<ChangeMessageDeps, 'slack'>, change: Change): Promise<void> {
  const own = redraws.get(ctx.slack);
  if (!own) return Promise.resolve();
  return own.serial.after(change.id);
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

async function drawChange(
  ctx: Pick<ChangeMessageDeps, 'clock' | 'logger' | 'slack' | 'store'>,
  change: Change,
): Promise<void> {
  const ts = (await messageOf(ctx, change))?.messageTs;
  if (!ts) return;
  const message = renderChange(change, ctx.clock.now(), await linksOf(ctx, change));
  try {
    await ctx.slack.chat.update({
      channel: change.origin.channel,
      ts,
      text: message.text,
      blocks: message.blocks,
    });
  } catch (err) {
    // A message that is gone can not show buttons any more: nothing is left to repair.
    const gone = GONE.has(String((err as { data?: { error?: unknown } }).data?.error));
    ctx.logger.warn(
      gone
        ? 'a change message is gone; not redrawing it'
        : 'could not rewrite a change message; housekeeping will redraw it',
      { changeId: change.id, error: err },
    );
    if (!gone) return;
  }
  // A settlement not yet stored is drawn again when it is (housekeeping); the store could not take the mark now.
  if (FINAL_STATUSES.includes(change.status) && !change.recordPending)
    await ctx.store.markMessageDrawn(change.id, change.status);
}
