/**
 * What the page reads: the viewer's state as /workspace/state sends it
 * (page-state.ts, written out again here because the page is compiled on its
 * own and imports nothing from outside this folder), and the Block Kit the bot
 * puts in messages and modals. Block and element types the page cannot draw
 * are named too, so the renderer shows them as unsupported rather than guessing.
 */

/** A plain_text or mrkdwn text object. */
export interface TextObject {
  type: 'plain_text' | 'mrkdwn';
  text: string;
  emoji?: boolean;
}

export interface OptionObject {
  text: TextObject;
  value: string;
}

/** A button's confirmation dialog. */
export interface ConfirmDialog {
  title?: TextObject;
  text?: TextObject;
  confirm?: TextObject;
  deny?: TextObject;
  style?: 'primary' | 'danger';
}

export interface ButtonElement {
  type: 'button';
  action_id?: string;
  text: TextObject;
  value?: string;
  style?: 'primary' | 'danger';
  confirm?: ConfirmDialog;
  /** What a screen reader says for the button (Slack allows 75 characters). */
  accessibility_label?: string;
}

export interface StaticSelectElement {
  type: 'static_select';
  action_id?: string;
  placeholder?: TextObject;
  options?: OptionObject[];
  option_groups?: { label?: TextObject; options?: OptionObject[] }[];
  initial_option?: OptionObject;
}

/** A type-ahead: its options come from the app (a `block_suggestion` request) as the person types. */
export interface ExternalSelectElement {
  type: 'external_select';
  action_id?: string;
  placeholder?: TextObject;
  initial_option?: OptionObject;
  /** Characters typed before Slack asks the app (Slack's default is 3). */
  min_query_length?: number;
}

interface ImageElement {
  type: 'image';
  image_url: string;
  alt_text?: string;
}

/** Element types the page draws as unsupported outside input blocks. */
type OtherElementType =
  | 'overflow'
  | 'datepicker'
  | 'datetimepicker'
  | 'timepicker'
  | 'checkboxes'
  | 'radio_buttons'
  | 'users_select'
  | 'conversations_select'
  | 'channels_select'
  | 'multi_static_select'
  | 'multi_external_select'
  | 'multi_users_select'
  | 'multi_conversations_select'
  | 'multi_channels_select'
  | 'plain_text_input'
  | 'number_input'
  | 'email_text_input'
  | 'url_text_input'
  | 'rich_text_input'
  | 'file_input'
  | 'workflow_button';

interface OtherElement {
  type: OtherElementType;
  action_id?: string;
}

/** A section's accessory or an actions block's element. */
export type BlockElement = ButtonElement | StaticSelectElement | ImageElement | OtherElement;

/** An input block's element other than a static select: the page draws it as a text input. */
export interface TextInputElement {
  type?: OtherElementType;
  action_id?: string;
  placeholder?: TextObject;
  initial_value?: string;
  multiline?: boolean;
}

interface HeaderBlock {
  type: 'header';
  block_id?: string;
  text: TextObject;
}

interface DividerBlock {
  type: 'divider';
  block_id?: string;
}

interface SectionBlock {
  type: 'section';
  block_id?: string;
  text?: TextObject;
  fields?: TextObject[];
  accessory?: BlockElement;
}

interface ContextBlock {
  type: 'context';
  block_id?: string;
  elements?: (TextObject | ImageElement)[];
}

interface ActionsBlock {
  type: 'actions';
  block_id?: string;
  elements?: BlockElement[];
}

interface ImageBlock {
  type: 'image';
  block_id?: string;
  image_url: string;
  alt_text?: string;
}

export interface InputBlock {
  type: 'input';
  block_id?: string;
  label: TextObject;
  element?: StaticSelectElement | ExternalSelectElement | TextInputElement;
  hint?: TextObject;
  optional?: boolean;
  dispatch_action?: boolean;
}

/** Blocks the page draws as unsupported. */
interface OtherBlock {
  type: 'file' | 'markdown' | 'rich_text' | 'table' | 'video';
  block_id?: string;
}

export type Block =
  | HeaderBlock
  | DividerBlock
  | SectionBlock
  | ContextBlock
  | ActionsBlock
  | ImageBlock
  | InputBlock
  | OtherBlock;

// ---- the viewer's state (page-state.ts) ------------------------------------

export interface Person {
  id: string;
  name: string;
  realName: string;
  role: string;
}

interface UserGroup {
  id: string;
  handle: string;
  name: string;
  members: string[];
}

interface Channel {
  id: string;
  name: string;
}

export interface PageMessage {
  ts: string;
  user: string;
  text: string;
  blocks: Block[];
  threadTs?: string;
  edited: boolean;
  replyCount: number;
  ephemeral: boolean;
  /** Times a response URL replaced this ephemeral whole: each is a new answer (page-state.ts). */
  replaced: number;
}

/** An open modal (views.ts's StoredView, the fields the page reads). */
export interface ModalView {
  id: string;
  hash: string;
  title?: TextObject;
  submit?: TextObject;
  close?: TextObject;
  blocks: Block[];
}

/** A modal in the viewer's stack, with the field errors the app answered. */
export interface StackedView {
  view: ModalView;
  errors: Record<string, string>;
}

export interface PageState {
  version: number;
  viewer: string;
  bot: { id: string; name: string };
  hint: {
    command: string;
    description: string;
    usageHint: string;
    /** The app's message shortcuts, offered in each message's menu. */
    shortcuts: { name: string; callbackId: string }[];
  };
  people: Person[];
  groups: UserGroup[];
  channels: Channel[];
  messages: Record<string, PageMessage[]>;
  views: StackedView[];
  /** The viewer's Home tab, once the app published one. */
  home?: { id: string; blocks: Block[] };
}
