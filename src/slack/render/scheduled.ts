/**
 * What a scheduled change's message says about its time (issue 41): on the
 * preview, when it applies and that Confirm and approvals happen now (and,
 * when the policy's expiry falls first, when approvals expire); once
 * confirmed, the waiting message with Cancel; once done, how late it
 * applied. Times are Slack date tokens, so each reader sees their own zone.
 */
import type { Change, ChangeFailure } from '../../changes/change.js';
import { formatSpan } from '../../format/duration.js';
import { approvers } from './approval-status.js';
import { context, escapeFit, finish, header, joinMapped, mention, section, slackDate } from './blocks.js';
import { actions, changeButton } from './buttons.js';
import { freezeLine } from './freezes.js';
import type { SlackMessage } from './message.js';
import { lineBlocks } from './preview-blocks.js';

/** Applied later than this after its time is said to be late (a scheduler tick is 5 s). */
const LATE_AFTER_MS = 60_000;

/** The line under a scheduled change's summary while it waits for Confirm or approvals. */
export function scheduleNote(change: Change): string | undefined {
  const at = change.scheduledAt;
  if (at === undefined) return undefined;
  const who = change.requirement.mode === 'approval' ? 'Approvals happen now' : 'Confirm now';
  const lapse =
    change.requirement.mode === 'approval' && change.expiresAt < at
      ? `\n:warning: Approvals expire at ${slackDate(change.expiresAt)}, before its time, as the policy says: then it expires without being applied. Request it nearer its time to keep it.`
      : '';
  return `:alarm_clock: *Scheduled:* applies ${slackDate(at)}. ${who}; nothing is written before its time, and the freeze and the target are checked again then.${lapse}`;
}

/** The message of a scheduled change confirmed (or approved) and waiting for its time: Cancel until it starts. */
export function renderScheduledWaiting(change: Change): SlackMessage {
  const at = change.scheduledAt as number;
  const { summary } = change.preview;
  const given = approvers(change);
  const people = [
    `requested by ${mention(change.requester)}`,
    ...(change.confirmedBy && !given.includes(change.confirmedBy)
      ? [`confirmed by ${mention(change.confirmedBy)}`]
      : []),
    ...(given.length ? [`approved by ${joinMapped(given, mention, 1200, ', ')}`] : []),
  ].join(' · ');
  return finish(`Scheduled: ${escapeFit(summary, 2000)}`, [
    header('Scheduled'),
    section(`*${escapeFit(summary, 1000)}*`),
    section(
      `:alarm_clock: Applies ${slackDate(at)}, through the same checks as a Confirm: if a freeze is in force then, or the target moved since this preview, it is refused and this message says why.`,
    ),
    ...lineBlocks(change.preview.lines),
    context(`${people} · the requester or an approver can cancel it until it starts`),
    actions([changeButton('cancel', change.id, summary)]),
  ]);
}

/**
 * Why a scheduled change was refused at its time, in mrkdwn with the freeze's
 * mention and date tokens (failure-text.ts has the plain words).
 */
export function frozenAtItsTime(failure: ChangeFailure | undefined): string | undefined {
  if (failure?.kind !== 'frozen') return undefined;
  return `:snowflake: Refused at its time: ${freezeLine(failure.freeze)}. So nothing was applied; request it again once the freeze ends.`;
}

/** How a scheduled change's apply went against its time, for the applied or failed message; undefined when not scheduled. */
export function scheduledLine(change: Change): string | undefined {
  const at = change.scheduledAt;
  if (at === undefined) return undefined;
  const when = change.appliedAt ?? change.updatedAt;
  const late = when - at;
  if (late <= LATE_AFTER_MS) return `scheduled for ${slackDate(at)}`;
  return `scheduled for ${slackDate(at)}, started ${formatSpan(late)} late (no replica was running at its time)`;
}
