/**
 * The buttons on a change message and in the approvals list. Every one
 * carries an action id from CHANGE_ACTIONS and the change id as its value, so
 * the listener finds the change in the store whatever replica posted it.
 */
import type { ActionsBlock, Button, ConfirmationDialog } from '@slack/types';
import { CHANGE_ACTIONS, type ChangeAction } from '../ids.js';
import { LIMITS, truncate } from '../limits.js';

const LABELS: Record<ChangeAction, string> = {
  confirm: 'Confirm',
  cancel: 'Cancel',
  approve: 'Approve',
  reject: 'Reject',
};

// What a screen reader says for each button: the action and the change it acts on.
const SPOKEN: Record<ChangeAction, string> = {
  confirm: 'Confirm',
  cancel: 'Cancel the request',
  approve: 'Approve',
  reject: 'Reject',
};

/** A button's accessibility_label: `action` and what it acts on, within Slack's 75 characters. */
export function spokenLabel(action: string, subject: string): string {
  return truncate(`${action}: ${subject}`, LIMITS.accessibilityLabel);
}

/**
 * One change button; `summary` (the change's one line) goes into its
 * accessibility label; `confirm` adds a danger-styled confirmation dialog.
 */
export function changeButton(
  action: ChangeAction,
  changeId: string,
  summary: string,
  options: { style?: 'primary' | 'danger'; confirm?: ConfirmationDialog } = {},
): Button {
  return {
    type: 'button',
    action_id: CHANGE_ACTIONS[action],
    text: { type: 'plain_text', text: LABELS[action] },
    accessibility_label: spokenLabel(SPOKEN[action], summary),
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

/**
 * Confirm (primary, or danger with a dialog when destructive) and Cancel, for a
 * pending change. `warnings` (e.g. "the last vessel of formation arena") go
 * into the dialog, the last thing read before the click.
 */
export function confirmButtons(
  changeId: string,
  summary: string,
  destructive: boolean,
  warnings: readonly string[] = [],
): Button[] {
  const confirm = destructive
    ? changeButton('confirm', changeId, summary, {
        style: 'danger',
        confirm: dangerDialog(
          'Apply this destructive change?',
          dialogText(summary, destructiveWarning(warnings)),
          'Yes, apply it',
          'Back',
        ),
      })
    : changeButton('confirm', changeId, summary, { style: 'primary' });
  return [confirm, changeButton('cancel', changeId, summary)];
}

interface ApprovalButtonOptions {
  /** Add Cancel (for the requester) after Approve and Reject. */
  withCancel: boolean;
  /**
   * The change is destructive and the next approval applies it: Approve is
   * then as dangerous as a destructive Confirm and carries the same dialog.
   */
  appliesDestructive?: boolean;
  warnings?: readonly string[];
}

/**
 * Approve (primary, or danger with a dialog when it applies a destructive
 * change) and Reject, optionally followed by Cancel. Reject opens a modal that
 * asks for the reason, so it needs no dialog of its own.
 */
export function approvalButtons(changeId: string, summary: string, o: ApprovalButtonOptions): Button[] {
  const approve = o.appliesDestructive
    ? changeButton('approve', changeId, summary, {
        style: 'danger',
        confirm: dangerDialog(
          'Approve and apply this destructive change?',
          dialogText(summary, destructiveWarning(o.warnings ?? [])),
          'Yes, approve and apply',
          'Back',
        ),
      })
    : changeButton('approve', changeId, summary, { style: 'primary' });
  const buttons = [approve, changeButton('reject', changeId, summary, { style: 'danger' })];
  if (o.withCancel) buttons.push(changeButton('cancel', changeId, summary));
  return buttons;
}

// The operation's own warnings say what is lost (a drain is undone by scaling up again, a delete is
// not); without any, the dialog says only what holds for every destructive change.
function destructiveWarning(warnings: readonly string[]): string {
  return warnings.length ? `. ${warnings.join(' ')}` : '. It cannot be undone from Slack.';
}

// Cuts the summary, not the warning after it, when the two do not fit in a dialog.
function dialogText(summary: string, warning: string): string {
  return `${truncate(summary, LIMITS.confirmText - warning.length)}${warning}`;
}

/** An actions block holding `buttons`. */
export function actions(buttons: Button[], blockId?: string): ActionsBlock {
  return { type: 'actions', elements: buttons, ...(blockId ? { block_id: blockId } : {}) };
}
