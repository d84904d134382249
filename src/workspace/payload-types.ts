/**
 * The shapes of the payloads Slack sends an app, written out here so the
 * workspace depends on nothing but HTTP and `@slack/types` (never on the bot
 * or on Bolt). test/workspace/payload-types.test.ts checks at compile time
 * that each one is still what Bolt reads.
 */
import type { Block, KnownBlock } from '@slack/types';

/** A slash command's form fields. */
export interface SlashCommand {
  [key: string]: string | undefined;
  token: string;
  command: string;
  text: string;
  response_url: string;
  trigger_id: string;
  user_id: string;
  user_name: string;
  team_id: string;
  team_domain: string;
  channel_id: string;
  channel_name: string;
  api_app_id: string;
  is_enterprise_install?: string;
}

interface SelectedOption {
  text: { type: 'plain_text'; text: string; emoji?: boolean };
  value: string;
}

/** One input's state in `view.state.values`. */
export interface ViewStateValue {
  type: string;
  value?: string | null;
  selected_date?: string | null;
  selected_time?: string | null;
  selected_conversation?: string | null;
  selected_channel?: string | null;
  selected_user?: string | null;
  selected_option?: SelectedOption | null;
  selected_conversations?: string[];
  selected_channels?: string[];
  selected_users?: string[];
  selected_options?: SelectedOption[];
}

interface PlainTextOutput {
  type: 'plain_text';
  text: string;
  emoji: boolean;
}

/** A view as Slack sends it inside interaction payloads. */
export interface ViewOutput {
  id: string;
  callback_id: string;
  team_id: string;
  app_installed_team_id?: string;
  app_id: string | null;
  bot_id: string;
  title: PlainTextOutput;
  type: string;
  blocks: (KnownBlock | Block)[];
  close: PlainTextOutput | null;
  submit: PlainTextOutput | null;
  state: { values: Record<string, Record<string, ViewStateValue>> };
  hash: string;
  private_metadata: string;
  root_view_id: string | null;
  previous_view_id: string | null;
  clear_on_close: boolean;
  notify_on_close: boolean;
  external_id?: string;
}

/** The element a `block_actions` payload reports (Slack echoes some of its fields). */
export interface BlockElementAction {
  [key: string]: unknown;
  type: string;
  block_id: string;
  action_id: string;
  action_ts: string;
}

interface PayloadUser {
  id: string;
  name: string;
  team_id?: string;
  username?: string;
}

/** A `block_actions` interaction (a click or a select change). */
export interface BlockActionsPayload {
  type: 'block_actions';
  actions: BlockElementAction[];
  team: { id: string; domain: string } | null;
  user: PayloadUser & { username: string };
  api_app_id: string;
  token: string;
  trigger_id: string;
  is_enterprise_install?: boolean;
  container: Record<string, unknown>;
  channel?: { id: string; name: string };
  message?: { [key: string]: unknown; type: 'message'; ts: string; user?: string; text?: string };
  view?: ViewOutput;
  state?: { values: Record<string, Record<string, ViewStateValue>> };
  response_url?: string;
}

/** A `view_submission` interaction. */
export interface ViewSubmitAction {
  type: 'view_submission';
  team: { id: string; domain: string } | null;
  user: PayloadUser;
  view: ViewOutput;
  api_app_id: string;
  token: string;
  trigger_id: string;
  response_urls?: { block_id: string; action_id: string; channel_id: string; response_url: string }[];
  is_enterprise_install?: boolean;
}

/** A `block_suggestion` request: what was typed into an `external_select`, asking for its options. */
export interface BlockSuggestionPayload {
  type: 'block_suggestion';
  block_id: string;
  action_id: string;
  /** What the person typed so far. */
  value: string;
  api_app_id: string;
  team: { id: string; domain: string } | null;
  user: PayloadUser;
  token: string;
  container: Record<string, unknown>;
  view?: ViewOutput;
  is_enterprise_install?: boolean;
}

/** A `message_action` request: a message shortcut used on a message. */
export interface MessageShortcutPayload {
  type: 'message_action';
  callback_id: string;
  trigger_id: string;
  message_ts: string;
  response_url: string;
  message: {
    [key: string]: unknown;
    type: 'message';
    ts: string;
    text?: string;
    user?: string;
    thread_ts?: string;
  };
  user: PayloadUser;
  channel: { id: string; name: string };
  team: { id: string; domain: string } | null;
  token: string;
  action_ts: string;
  is_enterprise_install?: boolean;
}
