/**
 * The Home tab: what waits for the person (with Approve / Reject, as in the
 * approvals list), their own requests and where each stands, the live tails
 * they started (with Stop), the open releases, and first the open alerts of
 * the channels they are in. Each part says so when it
 * is empty, so an empty Home tab still tells the person what it would show.
 */

import type { Button, HomeView, KnownBlock } from '@slack/types';
import type { Change } from '../../changes/change.js';
import { outcomeKey, storedOutcome } from '../../changes/follow-outcome.js';
import { offersRollback } from '../../changes/rollback/undo.js';
import type { ChangeStatus } from '../../store/types.js';
import { TAIL_ACTIONS } from '../ids.js';
import { LIMITS } from '../limits.js';
import { renderApprovals } from '../render/approvals.js';
import { divider, escapeFit, header, section, slackDate } from '../render/blocks.js';
import { freezeLine } from '../render/freezes.js';
import { rowButton } from '../render/row-actions.js';
import { scheduledRows } from '../render/scheduled-list.js';
import { alertLine } from '../render/watches.js';
import type { HomeData } from './home-data.js';

/** Where a request stands, in the words its change message uses. */
const STANDING: Record<ChangeStatus, string> = {
  pending: ':hourglass: waiting for confirmation',
  awaiting_approval: ':hourglass: waiting for approval',
  approved: ':white_check_mark: approved',
  applying: ':gear: applying',
  succeeded: ':white_check_mark: done',
  failed: ':x: failed',
  cancelled: ':no_entry_sign: cancelled',
  expired: ':zzz: expired',
};

/** Where a succeeded change stands once its follow-up ended, as its change message's header says. */
const FOLLOWED: Record<ReturnType<typeof outcomeKey>, string> = {
  done: ':white_check_mark: done',
  synced: ':large_blue_circle: synced, not verified',
  timeout: ':warning: applied, outcome not seen',
  failed: ':x: applied, then failed',
};

/** Where `c` stands; a rejected change is closed as cancelled in the store but is not the requester's doing. */
function standing(c: Change): string {
  if (c.status === 'cancelled' && c.error?.kind === 'rejected') return ':no_entry: rejected';
  // A scheduled change confirmed ahead waits for its time; one no replica reached in time was missed.
  if (c.status === 'approved' && c.scheduledAt !== undefined) return ':alarm_clock: scheduled';
  if (c.status === 'expired' && c.error?.kind === 'missed') return ':alarm_clock: missed';
  const outcome = c.status === 'succeeded' ? storedOutcome(c.result?.facts) : undefined;
  if (outcome) return FOLLOWED[outcomeKey(outcome)];
  if (c.status === 'succeeded' && c.result?.facts.following === 'rollout')
    return ':gear: applied, rollout followed';
  return STANDING[c.status];
}

/**
 * Roll back beside a request that applied, recorded its inverse and was not
 * rolled back yet: the same `rollback <id>` its message offers (which explains
 * instead of acting past its window or on a moved target). Its preview is
 * posted where the change was (the row listener), as Home is no channel.
 */
function rollbackOffer(c: Change): Button | undefined {
  if (c.status !== 'succeeded' || !offersRollback(c.undo) || c.rolledBackBy) return undefined;
  return rowButton({
    action: 'rollback',
    command: `rollback ${c.id}`,
    spoken: `Roll back: ${c.result?.summary ?? c.preview.summary}`,
  });
}

// Each part at most this many entries: the Home tab holds 100 blocks and a person scans, not scrolls.
const SHOWN = 10;

/** The Home tab view for `data`; `notice` (the answer to a click made there) sits on top. */
export function renderHome(data: HomeData, now: number, notice?: string): HomeView {
  const waiting =
    data.waiting.length > 0 ? (renderApprovals(data.waiting.slice(0, SHOWN), now).blocks ?? []) : [];
  const blocks: KnownBlock[] = [
    // The notice is a click's answer, already mrkdwn (mentions of who can help).
    ...(notice ? [section(notice), divider()] : []),
    header('Open alerts'),
    ...(data.alerts.length > 0
      ? data.alerts.slice(0, SHOWN).map((a) => section(`:rotating_light: ${alertLine(a)} in <#${a.channel}>`))
      : [section('No open alerts in your channels.')]),
    divider(),
    // Issue 41: what holds changes now, and what is set to change later (with Cancel).
    header('Freezes in force'),
    ...(data.freezes.length > 0
      ? data.freezes.slice(0, SHOWN).map((f) => section(`:snowflake: ${freezeLine(f)}`))
      : [section('No environment is frozen right now.')]),
    divider(),
    header('Scheduled changes'),
    ...(data.scheduled.length > 0
      ? scheduledRows(data.scheduled, SHOWN)
      : [section('No scheduled changes are waiting.')]),
    divider(),
    header('Waiting for you'),
    ...(waiting.length > 0 ? (waiting as KnownBlock[]) : [section('Nothing needs your approval right now.')]),
    divider(),
    header('Your requests'),
    ...(data.mine.length > 0
      ? data.mine.slice(0, SHOWN).map((c) => {
          const line = section(
            `${standing(c)}: *${escapeFit(c.preview.summary, 400)}* (${slackDate(c.createdAt)})`,
          );
          const back = rollbackOffer(c);
          return back ? { ...line, accessory: back } : line;
        })
      : [section('You have requested no changes yet.')]),
    divider(),
    header('Your live tails'),
    ...(data.tails.length > 0
      ? data.tails.slice(0, SHOWN).map((t) => ({
          ...section(
            `:scroll: *${escapeFit(t.vessel, 200)}* in \`${escapeFit(t.env, 100)}\` in <#${t.channel}>`,
          ),
          accessory: {
            type: 'button' as const,
            action_id: TAIL_ACTIONS.stop,
            value: t.id,
            text: { type: 'plain_text' as const, text: 'Stop' },
            accessibility_label: `Stop the tail of ${t.vessel}`.slice(0, LIMITS.accessibilityLabel),
          },
        }))
      : [section('No live tails of yours are running.')]),
    divider(),
    header('Open releases'),
    ...(data.releases.length > 0
      ? data.releases
          .slice(0, SHOWN)
          .map((r) => section(`:rocket: *${escapeFit(r.title, 300)}* in <#${r.channel}>`))
      : [section('No releases are open.')]),
  ];
  return { type: 'home', blocks };
}
