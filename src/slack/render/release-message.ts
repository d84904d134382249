/**
 * The release message (the top of a release thread) and what is said about
 * a release: the live board, kept current as work happens (steps done and by
 * whom, what waits for a confirmation or an approval, live tails, buttons for
 * the common steps), the ended board (only Roll back release, once a step applied), the summary posted in the
 * thread at the end, and the answers to `release end`.
 */
import type { Button, KnownBlock, StaticSelect } from '@slack/types';
import type { Change } from '../../changes/change.js';
import { isRollback } from '../../changes/operations/change.rollback/operation.js';
import { formatSpan } from '../../format/duration.js';
import { count } from '../../format/english.js';
import { FORMS, isReadOperation, type Operation } from '../../operations/index.js';
import type { ReleaseSnapshot, ReleaseSummary } from '../../releases/types.js';
import type { ReleaseRecord, TailRecord } from '../../store/types.js';
import type { ChangeModalKind } from '../grammar/command.js';
import { RELEASE_ACTIONS, RELEASE_ADD_ACTION, RELEASE_END_ACTION, RELEASE_ROLLBACK_ACTION } from '../ids.js';
import { LIMITS, truncate } from '../limits.js';
import { appliesDestructive, approvalProgress, approvers, whoMayApprove } from './approval-status.js';
import {
  context,
  escapeFit,
  fieldsSection,
  finish,
  header,
  joinMapped,
  mention,
  packItems,
  section,
  slackDate,
} from './blocks.js';
import { actions, approvalButtons, dangerDialog } from './buttons.js';
import { closedBy, failureText } from './failure-text.js';
import { renderUsage } from './help.js';
import type { SlackMessage } from './message.js';
import { changeLink, linked } from './permalink.js';

const SUMMARY_MAX = 300;
const NAME_MAX = 200;
const ERROR_MAX = 300;
/** Sections per list: enough for hundreds of steps before "… and N more". */
const LIST_BLOCKS = { done: 6, waiting: 4, tails: 3 } as const;
/** Changes waiting for approval shown with their own Approve and Reject (two blocks each). */
const APPROVAL_ROWS = 5;

// The common steps are buttons; every other change form is an option of "Add a change…".
const BUTTONS: { action: keyof typeof RELEASE_ACTIONS; label: string }[] = [
  { action: 'promote', label: 'Promote image' },
  { action: 'formationAdd', label: 'Add vessel to formation' },
  { action: 'formationRemove', label: 'Remove vessel' },
  { action: 'tailLogs', label: 'Tail logs' },
];

/** The "Add a change…" options: with the buttons, every change operation (`releaseOption` in src/operations/catalogue.ts). */
export const ADD_A_CHANGE: readonly { modal: ChangeModalKind; label: string }[] = FORMS.flatMap((f) =>
  f.form.releaseOption !== undefined && !isReadOperation(f.operation)
    ? [{ modal: f.kind as ChangeModalKind, label: f.form.releaseOption }]
    : [],
);

/** Change operations a release does not offer (`notInReleases`: incident actions on one server). */
export const NOT_RELEASE_STEPS: readonly Operation[] = FORMS.filter((f) => f.form.notInReleases).map(
  (f) => f.operation,
);

const WAITING = new Set<Change['status']>(['pending', 'awaiting_approval', 'approved', 'applying']);

/** The release message for `snapshot`: the live board while open, the record of it once ended. */
export function renderReleaseMessage(snapshot: ReleaseSnapshot, now: number): SlackMessage {
  const { release, changes, tails } = snapshot;
  const open = release.status === 'open';
  const done = changes.filter((c) => !WAITING.has(c.status));
  const waiting = changes.filter((c) => WAITING.has(c.status));
  // While open, what waits for an approver sits on top with its buttons: the thread may bury its message.
  const forApproval = open ? waiting.filter((c) => c.status === 'awaiting_approval') : [];
  const otherWaiting = waiting.filter((c) => !forApproval.includes(c));
  const blocks: KnownBlock[] = [
    header(`${open ? 'Release' : 'Release ended'}: ${release.title}`),
    context(byline(snapshot, now)),
  ];
  // Newest first on the board: the latest step is what people look for, and what a long list must not cut.
  blocks.push(
    ...list(
      `Steps done (${done.length})`,
      [...done].reverse(),
      stepLine,
      LIST_BLOCKS.done,
      open ? 'Nothing done yet.' : 'No steps were done in this release.',
    ),
  );
  if (forApproval.length) blocks.push(...approvalRows(forApproval));
  if (otherWaiting.length)
    blocks.push(...list(`Waiting (${otherWaiting.length})`, otherWaiting, waitingLine, LIST_BLOCKS.waiting));
  if (open && tails.length)
    blocks.push(...list(`Live tails (${tails.length})`, tails, tailLine, LIST_BLOCKS.tails));
  // Offered open or ended: the night after a release is when it is most wanted.
  const rollback = changes.some(canRollBack) ? [rollbackButton(release)] : [];
  if (open) {
    blocks.push({
      type: 'actions',
      elements: [
        ...BUTTONS.map((b) => releaseButton(b.action, b.label, release.id)),
        addAChange(release.id),
        ...rollback,
        endButton(release),
      ],
    });
    blocks.push(
      context(
        'Work started from these buttons, and changes typed in this channel while this is its only open release (or with `--release`), run in this thread: previews, approvals and results. End the release with its button, or with `/harbor release end <title-or-id>`.',
      ),
    );
  } else if (rollback.length) {
    blocks.push(actions(rollback));
  }
  const title = escapeFit(release.title, NAME_MAX);
  const text = open
    ? `Release ${title}: ${done.length} done, ${waiting.length} waiting, ${count(tails.length, 'live tail')}`
    : `Release ended: ${title} (${count(done.length, 'step')} done)`;
  return finish(text, blocks);
}

/** The summary posted in the thread when the release ends. */
export function renderReleaseSummary(s: ReleaseSummary): SlackMessage {
  const fields = [
    { label: 'Lasted', value: formatSpan(s.durationMs) },
    { label: 'Applied', value: String(s.applied) },
    { label: 'Failed', value: String(s.failed) },
    { label: 'Rejected / cancelled', value: `${s.rejected} / ${s.cancelled}` },
    { label: 'Expired', value: String(s.expired) },
    { label: 'Still open at the end', value: String(s.open) },
    { label: 'Approvals given', value: String(s.approvals) },
    { label: 'Tails stopped', value: String(s.tailsStopped) },
    {
      label: 'Median request to result',
      value: s.medianToDoneMs === undefined ? '–' : formatSpan(s.medianToDoneMs),
    },
    {
      label: 'Longest wait for approval',
      value: s.longestApprovalWaitMs === undefined ? '–' : formatSpan(s.longestApprovalWaitMs),
    },
  ];
  const ended = s.endedBy ? `Ended by ${mention(s.endedBy)}` : 'Ended';
  const blocks: KnownBlock[] = [
    header(`Release summary: ${s.release.title}`),
    fieldsSection(fields),
    ...list(
      `Steps (${s.changes.length}), in order`,
      s.changes,
      summaryLine,
      LIST_BLOCKS.done,
      'No changes were made in this release.',
    ),
    context(
      `${ended} ${slackDate(s.endedAt)} · started by ${mention(s.release.createdBy)} ${slackDate(s.release.createdAt)}`,
    ),
  ];
  const text = `Release ${escapeFit(s.release.title, NAME_MAX)} ended after ${formatSpan(s.durationMs)}: ${s.applied} applied, ${s.failed} failed, ${s.rejected + s.cancelled} rejected or cancelled, ${count(s.approvals, 'approval')}`;
  return finish(text, blocks);
}

/** The private answer to whoever ended the release. */
export function renderReleaseEnded(release: ReleaseRecord, tailsStopped: number): SlackMessage {
  const tails = tailsStopped ? ` Stopped ${count(tailsStopped, 'live tail')}.` : '';
  const text = `Ended release *${escapeFit(release.title, NAME_MAX)}* (\`${escapeFit(release.id, NAME_MAX)}\`); the summary is in its thread.${tails}`;
  return finish(text, [{ type: 'section', text: { type: 'mrkdwn', text } }]);
}

/** `release end <title>` matched several open releases: a usage answer listing their ids. */
export function renderAmbiguousRelease(
  commandName: string,
  ref: string,
  matches: readonly ReleaseRecord[],
): SlackMessage {
  const ids = joinMapped(
    matches,
    (r) => `\`${r.id}\` in <#${r.channel}> (started by ${mention(r.createdBy)} ${slackDate(r.createdAt)})`,
    LIMITS.sectionText - 200,
    ', ',
  );
  return renderUsage(commandName, {
    problem: `${matches.length} open releases are titled “${escapeFit(ref, NAME_MAX)}”: ${ids}. Name the one to end by its id.`,
    forms: [`${commandName} release end <title-or-id...>`],
    ...(matches[0] ? { example: `${commandName} release end ${matches[0].id}` } : {}),
  });
}

function byline(snapshot: ReleaseSnapshot, now: number): string {
  const { release, data } = snapshot;
  const started = `Started by ${mention(release.createdBy)} ${slackDate(release.createdAt)}`;
  const id = `id \`${escapeFit(release.id, NAME_MAX)}\``;
  if (release.status === 'open') return `${started} · ${id}`;
  const endedAt = release.endedAt ?? now;
  const by = data.endedBy ? ` by ${mention(data.endedBy)}` : '';
  return `${started} · ended${by} ${slackDate(endedAt)} after ${formatSpan(endedAt - release.createdAt)} · ${id}`;
}

function list<T>(
  title: string,
  items: readonly T[],
  render: (item: T) => string,
  maxBlocks: number,
  empty?: string,
): KnownBlock[] {
  if (items.length === 0) return empty ? packItems([`*${title}*\n${empty}`], (l) => l, { maxBlocks: 1 }) : [];
  const rows = [`*${title}*`, ...items.map((item) => ({ item }))];
  return packItems(rows, (row) => (typeof row === 'string' ? row : render(row.item)), { maxBlocks });
}

// Ending stops the release's tails and closes its board for good: a dialog asks first.
function endButton(release: ReleaseRecord): Button {
  return {
    type: 'button',
    action_id: RELEASE_END_ACTION,
    text: { type: 'plain_text', text: 'End release' },
    value: release.id,
    confirm: dangerDialog(
      `End release ${release.title}?`,
      'Its live tails stop, the summary is posted in its thread and its buttons go away. If changes still wait, you choose next whether to cancel or keep them.',
      'End it',
      'Keep it open',
    ),
  };
}

/**
 * Whether the release holds a change its rollback could undo: an applied one
 * that is not itself a rollback (the preview then says, per change, what it
 * leaves out and why: expired, already rolled back, not offered).
 */
function canRollBack(c: Change): boolean {
  return c.status === 'succeeded' && !isRollback(c.operation);
}

// No dialog: the click only posts a preview; its Confirm (or Approve) is the decision.
function rollbackButton(release: ReleaseRecord): Button {
  return {
    type: 'button',
    action_id: RELEASE_ROLLBACK_ACTION,
    text: { type: 'plain_text', text: 'Roll back release' },
    accessibility_label: truncate(
      `Roll back every applied change of release ${release.title}`,
      LIMITS.accessibilityLabel,
    ),
    value: release.id,
  };
}

/** Each change waiting for approval, with Approve and Reject (the change buttons, so the same routes and labels). */
function approvalRows(changes: readonly Change[]): KnownBlock[] {
  const blocks: KnownBlock[] = [section(`*Waiting for approval (${changes.length})*`)];
  changes.slice(0, APPROVAL_ROWS).forEach((c, i) => {
    blocks.push(section(waitingLine(c)));
    blocks.push(
      actions(
        approvalButtons(c.id, c.preview.summary, {
          withCancel: false,
          appliesDestructive: appliesDestructive(c),
          warnings: c.preview.warnings ?? [],
        }),
        `release.approval.${i}`,
      ),
    );
  });
  if (changes.length > APPROVAL_ROWS)
    blocks.push(
      context(
        `… and ${changes.length - APPROVAL_ROWS} more waiting for approval: each has Approve and Reject on its own message in this thread.`,
      ),
    );
  return blocks;
}

/** "Add a change…": opens the chosen change form for this release; the value carries the kind and the release id. */
function addAChange(releaseId: string): StaticSelect {
  return {
    type: 'static_select',
    action_id: RELEASE_ADD_ACTION,
    placeholder: { type: 'plain_text', text: 'Add a change…' },
    options: ADD_A_CHANGE.map((o) => ({
      text: { type: 'plain_text', text: o.label },
      value: `${o.modal} ${releaseId}`,
    })),
  };
}

function releaseButton(action: keyof typeof RELEASE_ACTIONS, label: string, releaseId: string): Button {
  return {
    type: 'button',
    action_id: RELEASE_ACTIONS[action],
    text: { type: 'plain_text', text: label },
    value: releaseId,
  };
}

// Each step links to its change message in the thread: its preview, result and follow-ups.
function summaryOf(c: Change): string {
  const summary = c.status === 'succeeded' ? (c.result?.summary ?? c.preview.summary) : c.preview.summary;
  return `*${linked(escapeFit(summary, SUMMARY_MAX), changeLink(c))}*`;
}

function people(c: Change): string {
  const parts = [`requested by ${mention(c.requester)}`];
  if (c.confirmedBy && c.requirement.mode !== 'approval')
    parts.push(`confirmed by ${mention(c.confirmedBy)}`);
  const approved = approvers(c);
  if (approved.length) parts.push(`approved by ${joinMapped(approved, mention, 300, ', ')}`);
  return parts.join(', ');
}

function stepLine(c: Change): string {
  switch (c.status) {
    case 'succeeded':
      return `:white_check_mark: ${summaryOf(c)} — ${people(c)}`;
    case 'failed':
      return `:x: ${summaryOf(c)} — failed: ${escapeFit(c.error ? failureText(c.error) : 'unknown error', ERROR_MAX)} (${people(c)})`;
    case 'cancelled': {
      const verb = c.error?.kind === 'rejected' ? 'rejected' : 'cancelled';
      const closer = closedBy(c);
      const by = closer ? ` by ${mention(closer)}` : '';
      return `:no_entry_sign: ${summaryOf(c)} — ${verb}${by} (${people(c)})`;
    }
    case 'expired':
      return `:hourglass: ${summaryOf(c)} — expired unconfirmed (${people(c)})`;
    default:
      return waitingLine(c);
  }
}

function waitingLine(c: Change): string {
  switch (c.status) {
    case 'pending':
      return `:point_right: ${summaryOf(c)} — waiting for ${mention(c.requester)} to confirm`;
    case 'awaiting_approval':
      return `:raised_hand: ${summaryOf(c)} — waiting for approval by ${whoMayApprove(c)}; ${approvalProgress(c)} (requested by ${mention(c.requester)})`;
    default:
      return `:gear: ${summaryOf(c)} — applying (${people(c)})`;
  }
}

function summaryLine(c: Change): string {
  const took = WAITING.has(c.status) ? '' : ` · ${formatSpan(c.updatedAt - c.createdAt)}`;
  return `${stepLine(c)}${took}`;
}

function tailLine(t: TailRecord): string {
  const container = t.container ? `, container \`${escapeFit(t.container, NAME_MAX)}\`` : '';
  return `:scroll: \`${escapeFit(t.vessel, NAME_MAX)}\` in \`${escapeFit(t.env, NAME_MAX)}\`${container} — started by ${mention(t.startedBy)} ${slackDate(t.startedAt)}`;
}
