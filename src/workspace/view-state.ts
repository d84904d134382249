/**
 * The `view.state.values` Slack sends on submission: one entry for every
 * input block, whether the user touched it or not (untouched inputs carry
 * their initial value or null). Tests name only the inputs they fill; the
 * rest is derived from the opened view as Slack would.
 */
import { isObject } from './json.js';
import type { ViewStateValue } from './payload-types.js';

export type StateValues = Record<string, Record<string, ViewStateValue>>;

/** A filled plain-text input. */
export function textInput(value: string | null): ViewStateValue {
  return { type: 'plain_text_input', value };
}

/** A static select with `value` chosen (option text defaults to the value). */
export function staticSelect(value: string | null, text = value ?? ''): ViewStateValue {
  return {
    type: 'static_select',
    selected_option: value === null ? null : { text: { type: 'plain_text', text, emoji: true }, value },
  };
}

// What an untouched element of each type submits.
const EMPTY: Record<string, Omit<ViewStateValue, 'type'>> = {
  plain_text_input: { value: null },
  number_input: { value: null },
  email_text_input: { value: null },
  url_text_input: { value: null },
  static_select: { selected_option: null },
  external_select: { selected_option: null },
  radio_buttons: { selected_option: null },
  users_select: { selected_user: null },
  conversations_select: { selected_conversation: null },
  channels_select: { selected_channel: null },
  multi_static_select: { selected_options: [] },
  multi_external_select: { selected_options: [] },
  checkboxes: { selected_options: [] },
  multi_users_select: { selected_users: [] },
  multi_conversations_select: { selected_conversations: [] },
  multi_channels_select: { selected_channels: [] },
  datepicker: { selected_date: null },
  timepicker: { selected_time: null },
};

// The fields that set an input element's initial state; Slack echoes them back as the app sent them.
interface InitialFields {
  type?: unknown;
  initial_value?: ViewStateValue['value'];
  initial_option?: ViewStateValue['selected_option'];
  initial_options?: ViewStateValue['selected_options'];
  initial_user?: ViewStateValue['selected_user'];
  initial_conversation?: ViewStateValue['selected_conversation'];
  initial_channel?: ViewStateValue['selected_channel'];
  initial_date?: ViewStateValue['selected_date'];
}

// An untouched element's state: its initial value if it has one, else empty.
function untouched(element: InitialFields): ViewStateValue {
  const type = String(element.type);
  const state: ViewStateValue = { type, ...(EMPTY[type] ?? { value: null }) };
  if (element.initial_value !== undefined) state.value = element.initial_value;
  if (element.initial_option !== undefined) state.selected_option = element.initial_option;
  if (element.initial_options !== undefined) state.selected_options = element.initial_options;
  if (element.initial_user !== undefined) state.selected_user = element.initial_user;
  if (element.initial_conversation !== undefined) state.selected_conversation = element.initial_conversation;
  if (element.initial_channel !== undefined) state.selected_channel = element.initial_channel;
  if (element.initial_date !== undefined) state.selected_date = element.initial_date;
  return state;
}

/** `given` plus an entry for every other input block in `blocks`, as Slack would submit. */
export function completeState(blocks: readonly unknown[], given: StateValues): StateValues {
  const values: StateValues = {};
  for (const block of blocks) {
    if (!isObject(block) || block.type !== 'input' || typeof block.block_id !== 'string') continue;
    const element = block.element;
    if (!isObject(element) || typeof element.action_id !== 'string') continue;
    values[block.block_id] = { [element.action_id]: untouched(element) };
  }
  for (const [blockId, actions] of Object.entries(given)) {
    values[blockId] = { ...values[blockId], ...actions };
  }
  return values;
}
