/**
 * The scheduled changes not started yet (issue 41), for `/harbor scheduled
 * [env]` and the Home tab: when each applies (a date token, each reader's
 * own zone), what, where it stands and who asked, with Cancel (the engine
 * judges who may: the requester or whoever could approve).
 */
import type { KnownBlock } from '@slack/types';
import type { Change } from '../../changes/change.js';
import { noun } from '../../format/english.js';
import { escapeFit, finish, header, mention, section, slackDate } from './blocks.js';
import { changeButton } from './buttons.js';
import type { SlackMessage } from './message.js';
import { changeLink, linked } from './permalink.js';

/** Block ids of the list's rows start so: a Cancel there answers privately, not with the approvals list. */
export const SCHEDULED_ROW_BLOCK = 'scheduled';

// One section per change keeps 20 well under Slack's 50 blocks, and a Home tab's share.
const MAX_SHOWN = 20;

/** Where a scheduled change stands before its time. */
function standing(c: Change): string {
  if (c.status === 'pending') return 'waiting for its requester to confirm';
  if (c.status === 'awaiting_approval') return 'waiting for approval';
  return 'confirmed, waits for its time';
}

/** One row per change: when, what, where it stands, who asked; Cancel beside it. */
export function scheduledRows(changes: readonly Change[], max = MAX_SHOWN): KnownBlock[] {
  return changes.slice(0, max).map((c, i) => ({
    ...section(
      `:alarm_clock: ${slackDate(c.scheduledAt as number)}: *${linked(escapeFit(c.preview.summary, 500), changeLink(c))}*\n${standing(c)} · requested by ${mention(c.requester)} in <#${c.origin.channel}>`,
      `${SCHEDULED_ROW_BLOCK}.${i}`,
    ),
    accessory: changeButton('cancel', c.id, c.preview.summary),
  }));
}

/** The `scheduled [env]` answer. */
export function renderScheduledList(changes: readonly Change[], environment?: string): SlackMessage {
  const where = environment ? ` in ${environment}` : '';
  if (changes.length === 0)
    return finish(`Nothing is scheduled${where}.`, [
      section(
        `Nothing is scheduled${where}: no change waits for its time. Add \`--at <time>\` to a change command (or fill a form's When field) to schedule one.`,
      ),
    ]);
  const title = `${changes.length} scheduled ${noun(changes.length, 'change')}${where}`;
  const more =
    changes.length > MAX_SHOWN ? [section(`…and ${changes.length - MAX_SHOWN} more, later than these.`)] : [];
  return finish(title, [header(title), ...scheduledRows(changes), ...more]);
}
