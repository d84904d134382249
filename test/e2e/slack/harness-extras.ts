/**
 * Small helpers the end-to-end tests share on top of bot-harness.ts: what a
 * message shows (text and every block, as one searchable string), its
 * buttons, modal answers built from the view the stand-in holds (with the
 * action ids the bot rendered, which a select changes per branch), thread
 * replies, and plain GETs on the bot's port.
 */
import { request } from 'node:http';
import type { ViewStateValue } from '../../../src/slack/modals/types.js';
import { TEST_CHANNEL, type TestUser } from '../../../src/workspace/identity.js';
import { blockActionsPayload, type SignedResponse } from '../../../src/workspace/signing.js';
import type {
  EphemeralMessage,
  RecordedCall,
  StoredMessage,
  StoredView,
} from '../../../src/workspace/stand-in.js';
import type { BotHarness } from './bot-harness.js';

/** Everything a person could read in a message or view: its text and its blocks, as one string. */
export function shown(message: { text?: string; blocks?: readonly unknown[] } | undefined): string {
  if (!message) return '';
  return `${message.text ?? ''}\n${JSON.stringify(message.blocks ?? [])}`;
}

interface ButtonElement {
  type: string;
  action_id: string;
  value?: string;
  style?: string;
  confirm?: { style?: string; title?: { text: string } };
}

/** The buttons in a message's actions blocks, in order. */
export function buttons(message: { blocks?: readonly unknown[] } | undefined): ButtonElement[] {
  const out: ButtonElement[] = [];
  for (const block of (message?.blocks ?? []) as { type?: string; elements?: ButtonElement[] }[]) {
    if (block.type !== 'actions') continue;
    for (const el of block.elements ?? []) if (el.type === 'button') out.push(el);
  }
  return out;
}

/** The action ids of a message's buttons. */
export function buttonIds(message: { blocks?: readonly unknown[] } | undefined): string[] {
  return buttons(message).map((b) => b.action_id);
}

interface InputElement {
  type: string;
  action_id: string;
  options?: { value: string; text: { text: string } }[];
}

/**
 * `values` for a submission of `view`: block id -> typed text or chosen option
 * value. Action ids and element types come from the view itself, so a select
 * whose action id depends on the branch is answered under the id it has.
 */
export function answers(
  view: StoredView,
  given: Record<string, string>,
): Record<string, Record<string, ViewStateValue>> {
  const values: Record<string, Record<string, ViewStateValue>> = {};
  for (const [blockId, value] of Object.entries(given)) {
    const block = (view.blocks as { type?: string; block_id?: string; element?: InputElement }[]).find(
      (b) => b.type === 'input' && b.block_id === blockId,
    );
    const el = block?.element;
    if (!el) throw new Error(`view ${view.id} has no input ${blockId}`);
    if (el.type === 'static_select') {
      const option = el.options?.find((o) => o.value === value);
      if (!option) throw new Error(`${blockId} offers no ${value}`);
      values[blockId] = {
        [el.action_id]: {
          type: el.type,
          selected_option: { text: { type: 'plain_text', text: option.text.text }, value },
        },
      };
    } else {
      values[blockId] = { [el.action_id]: { type: el.type, value } };
    }
  }
  return values;
}

/** The stand-in's current copy of view `viewId` (it fails the test when there is none). */
export function viewOf(h: BotHarness, viewId: string): StoredView {
  const view = h.slack.view(viewId);
  if (!view) throw new Error(`no view ${viewId}`);
  return view;
}

/** The input block ids of a view, in order. */
export function inputIds(view: StoredView): string[] {
  return (view.blocks as { type?: string; block_id?: string }[])
    .filter((b) => b.type === 'input' && typeof b.block_id === 'string')
    .map((b) => b.block_id as string);
}

/** Waits for a reply the bot posts in the thread of `parent` whose text matches `pattern`. */
export function waitForThreadReply(
  h: BotHarness,
  parent: StoredMessage,
  pattern: RegExp,
): Promise<RecordedCall> {
  return h.slack.waitFor(
    (c) =>
      c.method === 'chat.postMessage' &&
      c.body.channel === TEST_CHANNEL.id &&
      c.body.thread_ts === parent.ts &&
      pattern.test(String(c.body.text ?? '')),
    { timeoutMs: 5000 },
  );
}

/** The latest version of a channel message the stand-in holds. */
export function current(h: BotHarness, message: StoredMessage): StoredMessage {
  const latest = h.slack.message(TEST_CHANNEL.id, message.ts);
  if (!latest) throw new Error(`no message ${message.ts}`);
  return latest;
}

/** The last view the bot opened with views.open. */
export function openedViewId(h: BotHarness): string {
  const opened = h.slack.callsTo('views.open').at(-1);
  const view = opened?.response.view as { id?: string } | undefined;
  if (!view?.id) throw new Error('the bot opened no view');
  return view.id;
}

export interface PlainResponse {
  status: number;
  contentType: string;
  text: string;
}

/** A plain GET on the bot's own HTTP port (health and metrics). */
export function get(h: BotHarness, path: string): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${h.running.port}${path}`, { method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Clicks a button in an ephemeral message (e.g. the approvals list) as `user`, and waits for the bot. */
export function clickEphemeral(
  h: BotHarness,
  ephemeral: EphemeralMessage,
  actionId: string,
  user: TestUser,
  value?: string,
): Promise<SignedResponse> {
  return h.interact(
    blockActionsPayload({
      actionId,
      ...(value !== undefined ? { value } : {}),
      user,
      channel: TEST_CHANNEL,
      message: { ts: ephemeral.messageTs, text: ephemeral.text, blocks: ephemeral.blocks },
      isEphemeral: true,
      // The URL acts on the ephemeral list the click came from (replace_original refreshes it).
      responseUrl: h.slack.responseUrl({
        channel: TEST_CHANNEL.id,
        user: user.id,
        messageTs: ephemeral.messageTs,
        ephemeral: true,
      }),
      triggerId: h.slack.triggerId(),
    }),
  );
}
