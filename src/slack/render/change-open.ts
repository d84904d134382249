/**
 * A change's message while it is still open: waiting for its requester's
 * Confirm (pending), for approvals (awaiting approval), or being applied.
 * Only these states carry the buttons that move a change on.
 */

import type { Change } from '../../changes/change.js';
import { appliesDestructive, approvalProgress, selfApprovalNote, whoMayApprove } from './approval-status.js';
import { context, escapeFit, finish, mention, section, slackDate } from './blocks.js';
import { actions, approvalButtons, confirmButtons } from './buttons.js';
import { fallback, people, top } from './change-frame.js';
import type { SlackMessage } from './message.js';
import { previewBlocks } from './preview-blocks.js';

export function pending(change: Change, now: number): SlackMessage {
  const { summary, destructive } = change.preview;
  const title = destructive ? 'Confirm this destructive change' : 'Confirm this change';
  return finish(fallback(title, summary), [
    ...top(title, summary),
    ...previewBlocks(change.preview),
    context(
      `Requested by ${mention(change.requester)} · ${expiry(change, now)} · only the requester can confirm`,
    ),
    actions(confirmButtons(change.id, summary, destructive, change.preview.warnings)),
  ]);
}

export function awaitingApproval(change: Change, now: number): SlackMessage {
  const { summary, destructive } = change.preview;
  // The status leads ("Waiting for approval"); what kind of change it is follows.
  const title = destructive ? 'Waiting for approval: destructive change' : 'Waiting for approval';
  const who = `*Who can approve:* ${whoMayApprove(change)}\n${approvalProgress(change)}`;
  const self = selfApprovalNote(change);
  return finish(fallback(title, summary), [
    ...top(title, summary),
    ...previewBlocks(change.preview),
    section(self ? `${who}\n${self}` : who),
    context(`Requested by ${mention(change.requester)} · ${expiry(change, now)}${ruleNote(change)}`),
    actions(
      approvalButtons(change.id, summary, {
        withCancel: true,
        appliesDestructive: appliesDestructive(change),
        warnings: change.preview.warnings ?? [],
      }),
    ),
  ]);
}

export function applying(change: Change): SlackMessage {
  const { summary } = change.preview;
  // Who set it going, as the final message will name them: an approver is not said to have confirmed.
  return finish(fallback('Applying', summary), [
    ...top('Applying', summary),
    ...previewBlocks(change.preview),
    context(`Applying… · ${people(change)}`),
  ]);
}

// No "in 14 min": this message stays up unchanged for minutes and would go stale, while the
// date token renders in each reader's own time zone.
function expiry(change: Change, now: number): string {
  return change.expiresAt > now
    ? `expires ${slackDate(change.expiresAt)}`
    : `expired ${slackDate(change.expiresAt)}`;
}

function ruleNote(change: Change): string {
  return change.requirement.rule ? ` · policy rule \`${escapeFit(change.requirement.rule, 200)}\`` : '';
}
