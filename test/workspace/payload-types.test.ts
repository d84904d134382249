/**
 * The workspace writes Slack's payload shapes out itself (it may not import
 * Bolt); this holds them to Bolt's own types. The assignments are checked by
 * the type-check step of `npm test`; the runtime assertions check that the
 * builders fill in what Bolt's listeners match on.
 */
import { expect, it } from '@jest/globals';
import type {
  BlockAction,
  BlockSuggestion,
  MessageShortcut,
  SlashCommand,
  ViewStateValue,
  ViewSubmitAction,
} from '@slack/bolt';
import type * as Ours from '../../src/workspace/payload-types.js';
import {
  blockActionsPayload,
  blockSuggestionPayload,
  messageShortcutPayload,
  slashCommandFields,
  storedView,
  viewSubmissionPayload,
} from '../../src/workspace/payloads.js';
import { staticSelect } from '../../src/workspace/view-state.js';

it('builds payloads that are Bolt payloads', () => {
  const command: SlashCommand = slashCommandFields({ text: 'help' });
  const submission: ViewSubmitAction = viewSubmissionPayload({ callbackId: 'cb' });
  const state: ViewStateValue = staticSelect('dev') satisfies Ours.ViewStateValue;
  const click = blockActionsPayload({ actionId: 'confirm', value: 'c1' });
  // The action element is a wide union in Bolt; the envelope around it must match exactly.
  const { actions, response_url, ...envelope } = click;
  const boltEnvelope: Omit<BlockAction, 'actions' | 'response_url'> = envelope;
  const action = actions[0];
  expect(command.text).toBe('help');
  expect(submission.view.callback_id).toBe('cb');
  expect(state.selected_option?.value).toBe('dev');
  expect(boltEnvelope.type).toBe('block_actions');
  expect(response_url).toMatch(/^http/);
  expect(action).toMatchObject({ action_id: 'confirm', value: 'c1' });
});

it('builds block_suggestion payloads that are Bolt options requests', () => {
  const suggestion: BlockSuggestion = blockSuggestionPayload({
    view: storedView({ id: 'V1' }),
    actionId: 'pick',
    blockId: 'b',
    query: 'lob',
  });
  expect(suggestion).toMatchObject({
    type: 'block_suggestion',
    action_id: 'pick',
    block_id: 'b',
    value: 'lob',
  });
  expect(suggestion.container).toEqual({ type: 'view', view_id: 'V1' });
});

it('builds message_action payloads that are Bolt message shortcuts', () => {
  const used: MessageShortcut = messageShortcutPayload({
    callbackId: 'cb',
    message: { ts: '1.2', text: 'lobby-1 is down', user: 'U1' },
  });
  expect(used).toMatchObject({
    type: 'message_action',
    callback_id: 'cb',
    message: { text: 'lobby-1 is down' },
  });
});
