/**
 * The Reject modal: a rejection closes a change for good, so the approver
 * says why, and the requester reads it in the change message and in the
 * thread reply that tells them.
 */
import type { ModalView } from '@slack/types';
import type { Change } from '../../changes/change.js';
import { REJECT_CALLBACK, REJECT_REASON_INPUT, type RejectMetadata } from '../ids.js';
import { escapeFit, mention } from './blocks.js';

/** Longest reason accepted; a rejection note, not an essay. */
export const REASON_MAX = 1000;

/** The modal asking why `change` is rejected. */
export function renderRejectModal(change: Change, meta: RejectMetadata): ModalView {
  return {
    type: 'modal',
    callback_id: REJECT_CALLBACK,
    private_metadata: JSON.stringify(meta),
    title: { type: 'plain_text', text: 'Reject change' },
    submit: { type: 'plain_text', text: 'Reject' },
    close: { type: 'plain_text', text: 'Back' },
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `*${escapeFit(change.preview.summary, 1000)}*\nRequested by ${mention(change.requester)}. Rejecting closes the change; it will not be applied.`,
        },
      },
      {
        type: 'input',
        block_id: REJECT_REASON_INPUT,
        label: { type: 'plain_text', text: 'Why are you rejecting it?' },
        hint: { type: 'plain_text', text: 'The requester sees this in the thread.' },
        element: {
          type: 'plain_text_input',
          action_id: REJECT_REASON_INPUT,
          multiline: true,
          max_length: REASON_MAX,
        },
      },
    ],
  };
}
