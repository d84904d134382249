/**
 * The buttons on a change message and in the approvals list. Every one
 * carries an action id from CHANGE_ACTIONS and the change id as its value, so
 * the listener finds the change in the store whatever replica posted it.
 */
import type { ActionsBlock, Button, ConfirmationDialog } from '@slack/types';
import { CHANGE_ACTIONS, type ChangeAction } from '../ids.js';
import { LIMITS, truncate } from './limits.js';

const LABELS: Record<ChangeAction, string> = {
  confirm: 'Confirm',
  cancel: 'Cancel',
  approve: 'Approve',
  reject: 'Reject',
};

/** One change button; `confirm` adds a danger-styled confirmation dialog. */
export function changeButton(
  action: ChangeAction,
  changeId: string,
  options: { style?: 'primary' | 'danger'; confirm?: ConfirmationDialog } = {},
): Button {
  return {
    type: 'button',
    action_id: CHANGE_ACTIONS[action],
    text: { type: 'plain_text', text: LABELS[action] },
    value: changeId,
    ...(options.style ? { style: options.style } : {}),
    ...(options.confirm ? { confirm: options.confirm } : {}),
  };
}

/** A danger confirmation dialog; `text` is plain text, cut to the dialog limit. */
export function dangerDialog(title: string, text: string, confirm: string, deny: string): ConfirmationDialog {
  return {
    title: { type: 'plain_text', text: truncate(title, LIMITS.confirmTitle) },
    text: { type: 'plain_text', text: truncate(text, LIMITS.confirmText) },
    // Slack caps the two dialog buttons at 30 characters.
    confirm: { type: 'plain_text', text: truncate(confirm, 30) },
    deny: { type: 'plain_text', text: truncate(deny, 30) },
    style: 'danger',
  };
}

/** Confirm (primary, or danger with a dialog when destructive) and Cancel, for a pending change. */
export function confirmButtons(changeId: string, summary: string, destructive: boolean): Button[] {
  const confirm = destructive
    ? changeButton('confirm', changeId, {
        style: 'danger',
        confirm: dangerDialog(
          'Apply this destructive change?',
          dialogText(summary, '. This removes something and cannot be undone from Slack.'),
          'Yes, apply it',
          'Keep it',
        ),
      })
    : changeButton('confirm', changeId, { style: 'primary' });
  return [confirm, changeButton('cancel', changeId)];
}

/** Approve (primary) and Reject (danger, with a dialog), optionally followed by Cancel. */
export function approvalButtons(changeId: string, summary: string, withCancel: boolean): Button[] {
  const buttons = [
    changeButton('approve', changeId, { style: 'primary' }),
    changeButton('reject', changeId, {
      style: 'danger',
      confirm: dangerDialog(
        'Reject this change?',
        dialogText(summary, '. Rejecting closes the change; it will not be applied.'),
        'Reject',
        'Back',
      ),
    }),
  ];
  if (withCancel) buttons.push(changeButton('cancel', changeId));
  return buttons;
}

// Cuts the summary, not the warning after it, when the two do not fit in a dialog.
function dialogText(summary: string, warning: string): string {
  return `${truncate(summary, LIMITS.confirmText - warning.length)}${warning}`;
}

/** An actions block holding `buttons`. */
export function actions(buttons: Button[], blockId?: string): ActionsBlock {
  return { type: 'actions', elements: buttons, ...(blockId ? { block_id: blockId } : {}) };
}
