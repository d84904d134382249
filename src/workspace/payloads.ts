/**
 * Request bodies shaped like the ones Slack sends to the bot: slash commands
 * (a form) and interactions (a form whose `payload` field holds JSON). Typed
 * by payload-types.ts, which a test holds to Bolt's own payload types.
 * Defaults come from identity.ts, matching the stand-in.
 */

import {
  TEST_BOT,
  TEST_CHANNEL,
  TEST_TEAM,
  TEST_USER,
  TEST_VERIFICATION_TOKEN,
  type TestUser,
} from './identity.js';
import { field, isObject, type JsonObject } from './json.js';
import type {
  BlockActionsPayload,
  BlockElementAction,
  BlockSuggestionPayload,
  MessageShortcutPayload,
  SlashCommand,
  ViewOutput,
  ViewStateValue,
  ViewSubmitAction,
} from './payload-types.js';
import { completeState, type StateValues } from './view-state.js';
import type { StoredView } from './views.js';

export type { BlockActionsPayload } from './payload-types.js';

/** Where a response goes when a test gives none: a closed local port, so a stray call fails fast. */
const UNSET_RESPONSE_URL = 'http://127.0.0.1:9/response/unset';

let sequence = 0;

/** A unique trigger id (the stand-in accepts ids it did not issue, once each). */
function newTriggerId(): string {
  sequence += 1;
  return `${900000 + sequence}.${TEST_TEAM.id}.kit${sequence.toString(16).padStart(8, '0')}`;
}

function userRef(user: TestUser | string | undefined): TestUser {
  if (user === undefined) return TEST_USER;
  return typeof user === 'string' ? { id: user, name: user.toLowerCase() } : user;
}

/** A slash command's fields, in Slack's order, with `fields` overriding the defaults. */
export function slashCommandFields(fields: Partial<SlashCommand> = {}): SlashCommand {
  return {
    token: TEST_VERIFICATION_TOKEN,
    team_id: TEST_TEAM.id,
    team_domain: TEST_TEAM.domain,
    channel_id: TEST_CHANNEL.id,
    channel_name: TEST_CHANNEL.name,
    user_id: TEST_USER.id,
    user_name: TEST_USER.name,
    command: '/harbor',
    text: '',
    api_app_id: TEST_BOT.appId,
    is_enterprise_install: 'false',
    response_url: UNSET_RESPONSE_URL,
    trigger_id: newTriggerId(),
    ...fields,
  };
}

/** A slash command as the form body Slack posts (`application/x-www-form-urlencoded`). */
export function slashCommandBody(fields: Partial<SlashCommand> = {}): string {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(slashCommandFields(fields))) {
    if (value !== undefined) form.append(key, String(value));
  }
  return form.toString();
}

/** An interaction as the form body Slack posts: `payload=<urlencoded JSON>`. */
export function interactionBody(payload: object): string {
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

interface BlockActionsOptions {
  actionId: string;
  /** The button's value; defaults to the value of the element found in `message`/`view` blocks. */
  value?: string;
  blockId?: string;
  user?: TestUser | string;
  channel?: string | { id: string; name: string };
  /** The message carrying the element (e.g. `standIn.message(...)`); its blocks supply block_id/text. */
  message?: { ts: string; text?: string; blocks?: readonly unknown[]; threadTs?: string };
  /** The message ts when no `message` is given. */
  messageTs?: string;
  /** Set when the element sits in a modal: the container becomes the view, no channel/message. */
  view?: StoredView;
  /** The modal's inputs as the user left them (untouched ones are filled in from `view`). */
  values?: StateValues;
  responseUrl?: string;
  triggerId?: string;
  /** Replaces the whole action element (e.g. a static_select with `selected_option`). */
  action?: Record<string, unknown>;
  isEphemeral?: boolean;
  actionTs?: string;
}

/** A `block_actions` payload for a click on `actionId`, as Slack sends it. */
export function blockActionsPayload(options: BlockActionsOptions): BlockActionsPayload {
  const user = userRef(options.user);
  const blocks = options.view?.blocks ?? options.message?.blocks ?? [];
  const found = findElement(blocks, options.actionId);
  const blockId = options.blockId ?? found?.blockId ?? 'kit-block';
  const element = found?.element ?? { type: 'button', text: { type: 'plain_text', text: options.actionId } };
  const value = options.value ?? (typeof element.value === 'string' ? element.value : undefined);
  // A select's action carries what was picked; take it from the state the test gave.
  const picked = options.values?.[blockId]?.[options.actionId];
  const action = options.action ?? {
    ...actionFields(element),
    ...picked,
    action_id: options.actionId,
    block_id: blockId,
    ...(value !== undefined ? { value } : {}),
    action_ts: options.actionTs ?? '1700000000.000001',
  };
  const base = {
    type: 'block_actions' as const,
    user: { id: user.id, username: user.name, name: user.name, team_id: TEST_TEAM.id },
    api_app_id: TEST_BOT.appId,
    token: TEST_VERIFICATION_TOKEN,
    trigger_id: options.triggerId ?? newTriggerId(),
    team: { id: TEST_TEAM.id, domain: TEST_TEAM.domain },
    is_enterprise_install: false,
    actions: [action as BlockElementAction],
  };
  if (options.view) {
    const values = completeState(options.view.blocks, options.values ?? {});
    return {
      ...base,
      container: { type: 'view', view_id: options.view.id },
      view: viewOutput(options.view, values),
    };
  }
  const channel =
    typeof options.channel === 'object'
      ? options.channel
      : { id: options.channel ?? TEST_CHANNEL.id, name: channelName(options.channel) };
  const ts = options.message?.ts ?? options.messageTs ?? '1700000000.000100';
  return {
    ...base,
    container: {
      type: 'message',
      message_ts: ts,
      channel_id: channel.id,
      is_ephemeral: !!options.isEphemeral,
    },
    channel,
    message: {
      type: 'message',
      user: TEST_BOT.userId,
      bot_id: TEST_BOT.botId,
      app_id: TEST_BOT.appId,
      team: TEST_TEAM.id,
      ts,
      text: options.message?.text ?? '',
      blocks: [...blocks],
      ...(options.message?.threadTs ? { thread_ts: options.message.threadTs } : {}),
    },
    state: { values: {} },
    response_url: options.responseUrl ?? UNSET_RESPONSE_URL,
  };
}

interface ViewSubmissionOptions {
  /** Values of the inputs the user filled, by block id and action id. */
  values?: Record<string, Record<string, ViewStateValue>>;
  /** The opened view (e.g. `standIn.view(id)`); its blocks fill in untouched inputs. */
  view?: StoredView;
  callbackId?: string;
  privateMetadata?: string;
  viewId?: string;
  user?: TestUser | string;
  triggerId?: string;
}

/** A `view_submission` payload for a modal, as Slack sends it. */
export function viewSubmissionPayload(options: ViewSubmissionOptions): ViewSubmitAction {
  const user = userRef(options.user);
  const view = options.view ?? storedView({ id: options.viewId ?? 'V0KIT' });
  const values = completeState(view.blocks, options.values ?? {});
  const output = viewOutput(
    {
      ...view,
      ...(options.viewId !== undefined ? { id: options.viewId } : {}),
      ...(options.callbackId !== undefined ? { callback_id: options.callbackId } : {}),
      ...(options.privateMetadata !== undefined ? { private_metadata: options.privateMetadata } : {}),
    },
    values,
  );
  return {
    type: 'view_submission',
    team: { id: TEST_TEAM.id, domain: TEST_TEAM.domain },
    user: { id: user.id, name: user.name, team_id: TEST_TEAM.id },
    api_app_id: TEST_BOT.appId,
    token: TEST_VERIFICATION_TOKEN,
    trigger_id: options.triggerId ?? newTriggerId(),
    view: output,
    response_urls: [],
    is_enterprise_install: false,
  };
}

interface BlockSuggestionOptions {
  /** The modal holding the select (e.g. `standIn.view(id)`). */
  view: StoredView;
  actionId: string;
  /** The select's block; found from `view` when not given. */
  blockId?: string;
  /** What the person typed. */
  query: string;
  user?: TestUser | string;
  /** The modal's inputs as the person left them (untouched ones are filled in from `view`). */
  values?: StateValues;
}

/** A `block_suggestion` payload: Slack asking for an `external_select`'s options, as it sends it. */
export function blockSuggestionPayload(options: BlockSuggestionOptions): BlockSuggestionPayload {
  const user = userRef(options.user);
  const blockId =
    options.blockId ?? findElement(options.view.blocks, options.actionId)?.blockId ?? 'kit-block';
  return {
    type: 'block_suggestion',
    user: { id: user.id, name: user.name, team_id: TEST_TEAM.id },
    container: { type: 'view', view_id: options.view.id },
    api_app_id: TEST_BOT.appId,
    token: TEST_VERIFICATION_TOKEN,
    action_id: options.actionId,
    block_id: blockId,
    value: options.query,
    team: { id: TEST_TEAM.id, domain: TEST_TEAM.domain },
    is_enterprise_install: false,
    view: viewOutput(options.view, completeState(options.view.blocks, options.values ?? {})),
  };
}

interface MessageShortcutOptions {
  callbackId: string;
  /** The message the shortcut was used on. */
  message: { ts: string; text?: string; user?: string; threadTs?: string };
  channel?: string | { id: string; name: string };
  user?: TestUser | string;
  responseUrl?: string;
  triggerId?: string;
}

/** A `message_action` payload: a message shortcut used on `message`, as Slack sends it. */
export function messageShortcutPayload(options: MessageShortcutOptions): MessageShortcutPayload {
  const user = userRef(options.user);
  const channel =
    typeof options.channel === 'object'
      ? options.channel
      : { id: options.channel ?? TEST_CHANNEL.id, name: channelName(options.channel) };
  const m = options.message;
  return {
    type: 'message_action',
    token: TEST_VERIFICATION_TOKEN,
    action_ts: '1700000000.000002',
    team: { id: TEST_TEAM.id, domain: TEST_TEAM.domain },
    user: { id: user.id, name: user.name, username: user.name, team_id: TEST_TEAM.id },
    channel,
    is_enterprise_install: false,
    callback_id: options.callbackId,
    trigger_id: options.triggerId ?? newTriggerId(),
    message_ts: m.ts,
    response_url: options.responseUrl ?? UNSET_RESPONSE_URL,
    message: {
      type: 'message',
      ts: m.ts,
      ...(m.text !== undefined ? { text: m.text } : {}),
      ...(m.user ? { user: m.user } : {}),
      ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    },
  };
}

/**
 * An `app_home_opened` event as Slack posts it (a JSON `event_callback`):
 * `user` opened the app's `tab` ('home' or 'messages').
 */
export function appHomeOpenedBody(user: string, tab: 'home' | 'messages' = 'home'): string {
  return JSON.stringify({
    token: TEST_VERIFICATION_TOKEN,
    team_id: TEST_TEAM.id,
    api_app_id: TEST_BOT.appId,
    type: 'event_callback',
    event_id: `Ev${newTriggerId().replace(/\W/g, '').slice(-10)}`,
    event_time: 1700000000,
    authorizations: [{ team_id: TEST_TEAM.id, user_id: TEST_BOT.userId, is_bot: true }],
    event: {
      type: 'app_home_opened',
      user,
      channel: `D0${user.slice(1)}`,
      tab,
      event_ts: '1700000000.000300',
    },
  });
}

function channelName(id: string | undefined): string {
  return id === undefined || id === TEST_CHANNEL.id ? TEST_CHANNEL.name : id.toLowerCase();
}

/** A view as the stand-in would store it, for building payloads without opening one. */
export function storedView(fields: Partial<StoredView> = {}): StoredView {
  const id = fields.id ?? 'V0KIT';
  return {
    id,
    team_id: TEST_TEAM.id,
    type: 'modal',
    title: { type: 'plain_text', text: 'Modal' },
    blocks: [],
    private_metadata: '',
    callback_id: '',
    external_id: '',
    state: { values: {} },
    hash: '1700000000.kit',
    clear_on_close: false,
    notify_on_close: false,
    root_view_id: id,
    previous_view_id: null,
    app_id: TEST_BOT.appId,
    app_installed_team_id: TEST_TEAM.id,
    bot_id: TEST_BOT.botId,
    ...fields,
  };
}

// Slack sends plain-text objects with `emoji`; a missing title/submit/close is null.
function plainText(value: unknown): ViewOutput['title'] | null {
  if (!value || typeof value !== 'object') return null;
  const text = (value as { text?: unknown }).text;
  return { type: 'plain_text', text: typeof text === 'string' ? text : '', emoji: true };
}

function viewOutput(view: StoredView, values: StateValues): ViewOutput {
  return {
    id: view.id,
    team_id: view.team_id,
    type: view.type,
    blocks: view.blocks as ViewOutput['blocks'],
    private_metadata: view.private_metadata,
    callback_id: view.callback_id,
    external_id: view.external_id,
    state: { values },
    hash: view.hash,
    title: plainText(view.title) ?? { type: 'plain_text', text: '', emoji: true },
    close: plainText(view.close),
    submit: plainText(view.submit),
    clear_on_close: view.clear_on_close,
    notify_on_close: view.notify_on_close,
    root_view_id: view.root_view_id,
    previous_view_id: view.previous_view_id,
    app_id: view.app_id,
    app_installed_team_id: view.app_installed_team_id,
    bot_id: view.bot_id,
  };
}

// Slack echoes only these fields of the element in the action (not options, confirm, initial values).
function actionFields(element: JsonObject): Record<string, unknown> {
  const keep = ['type', 'text', 'value', 'style', 'url', 'placeholder'];
  return Object.fromEntries(Object.entries(element).filter(([key]) => keep.includes(key)));
}

// The interactive element with this action id in actions blocks, section accessories or inputs.
function findElement(
  blocks: readonly unknown[],
  actionId: string,
): { blockId: string; element: JsonObject } | undefined {
  for (const block of blocks) {
    const elements = field(block, 'elements');
    const candidates: unknown[] = [
      ...(Array.isArray(elements) ? elements : []),
      field(block, 'accessory'),
      field(block, 'element'),
    ];
    const element = candidates.find((e): e is JsonObject => isObject(e) && e.action_id === actionId);
    if (element) {
      const blockId = field(block, 'block_id');
      return { blockId: typeof blockId === 'string' ? blockId : 'kit-block', element };
    }
  }
  return undefined;
}
