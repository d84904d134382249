/**
 * What the release end-to-end tests share: starting a release, its thread,
 * and running a change from its buttons or its "Add a change…" select the way
 * a person would (the where step, then the form, then the preview in the thread).
 */
import { expect } from '@jest/globals';
import { CHANGE_ACTIONS, MODAL_RELOAD_ACTION, RELEASE_ADD_ACTION } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { blockActionsPayload } from '../../../src/workspace/signing.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, type BotHarness } from './bot-harness.js';
import { answers, buttonIds, current, openedViewId, shown, viewOf } from './harness-extras.js';

/** Starts a release and returns its message. */
export async function startRelease(h: BotHarness, title: string): Promise<StoredMessage> {
  await h.slash(`release start ${title}`);
  return h.lastMessage();
}

/** The bot's replies in the release thread, oldest first. */
export function thread(h: BotHarness, release: StoredMessage): StoredMessage[] {
  return h.slack.thread(TEST_CHANNEL.id, release.ts).filter((m) => m.ts !== release.ts);
}

/** The preview of the latest change in the release thread (not the reply that asks its approvers). */
export function latestPreview(h: BotHarness, release: StoredMessage): StoredMessage {
  const changeButtons: string[] = Object.values(CHANGE_ACTIONS);
  const preview = thread(h, release)
    .filter((m) => buttonIds(m).some((id) => changeButtons.includes(id)))
    .at(-1);
  if (!preview) throw new Error('no preview in the release thread');
  return preview;
}

/**
 * Fills the where step (environment, then formation) the way a user would: pressing
 * Enter in the field (a reload action) or the Next button (a submission) after each.
 */
export async function pickPlace(
  h: BotHarness,
  viewId: string,
  given: Record<string, string>,
  by: 'enter' | 'next',
): Promise<void> {
  const steps = [{ 'where.environment': given['where.environment'] ?? '' }, given];
  for (const step of steps) {
    const view = viewOf(h, viewId);
    if (by === 'next') {
      expect(shown({ blocks: [view.submit] })).toContain('Next');
      const res = await h.submit(viewId, answers(view, step));
      expect(res.body).toMatchObject({ response_action: 'update' });
    } else {
      await h.interact(
        blockActionsPayload({
          actionId: MODAL_RELOAD_ACTION,
          view,
          values: answers(view, step),
          user: ALICE,
        }),
      );
    }
  }
}

/** Fills the opened form (where step, then `given`) and submits it; returns the preview posted in the thread. */
export async function fillAndSubmit(
  h: BotHarness,
  release: StoredMessage,
  place: Record<string, string>,
  given: Record<string, string>,
  by: 'enter' | 'next' = 'enter',
): Promise<StoredMessage> {
  const viewId = openedViewId(h);
  if (Object.keys(place).length) await pickPlace(h, viewId, place, by);
  const res = await h.submit(viewId, answers(viewOf(h, viewId), { ...place, ...given }));
  // The form closes: the preview in the thread is the answer.
  expect(res.body).toEqual({ response_action: 'clear' });
  await h.settle();
  return latestPreview(h, release);
}

/** Clicks a release button, fills the where step and submits; returns the preview posted in the thread. */
export async function viaButton(
  h: BotHarness,
  release: StoredMessage,
  action: string,
  place: Record<string, string>,
  given: Record<string, string>,
  by: 'enter' | 'next' = 'enter',
): Promise<StoredMessage> {
  await h.click(current(h, release), action);
  return fillAndSubmit(h, release, place, given, by);
}

/** The options of the release message's "Add a change…" select, as label -> value. */
export function addOptions(message: StoredMessage): Map<string, string> {
  for (const block of (message.blocks ?? []) as { type?: string; elements?: unknown[] }[]) {
    if (block.type !== 'actions') continue;
    for (const el of (block.elements ?? []) as {
      action_id?: string;
      options?: { text: { text: string }; value: string }[];
    }[]) {
      if (el.action_id === RELEASE_ADD_ACTION)
        return new Map((el.options ?? []).map((o) => [o.text.text, o.value]));
    }
  }
  return new Map();
}

/** Picks `label` in the release message's "Add a change…" select (a signed block action), opening its form. */
export async function pickAddChange(h: BotHarness, release: StoredMessage, label: string): Promise<void> {
  const message = current(h, release);
  const value = addOptions(message).get(label);
  if (!value) throw new Error(`"Add a change…" offers no ${label}`);
  await h.interact(
    blockActionsPayload({
      actionId: RELEASE_ADD_ACTION,
      user: ALICE,
      channel: TEST_CHANNEL,
      message,
      responseUrl: h.slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id, messageTs: message.ts }),
      triggerId: h.slack.triggerId(),
      action: {
        type: 'static_select',
        action_id: RELEASE_ADD_ACTION,
        block_id: 'release.actions',
        selected_option: { text: { type: 'plain_text', text: label }, value },
        action_ts: '1700000000.000002',
      },
    }),
  );
}

/** Changes a release thread: the same helpers bound to one harness. */
export function viaSelect(
  h: BotHarness,
  release: StoredMessage,
  label: string,
  place: Record<string, string>,
  given: Record<string, string>,
): Promise<StoredMessage> {
  return pickAddChange(h, release, label).then(() => fillAndSubmit(h, release, place, given));
}
