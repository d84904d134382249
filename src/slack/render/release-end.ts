/**
 * What ending a release says when its changes still wait: each of them by
 * name, and the explicit choice "Cancel them and end" or "Keep them and end";
 * then, once ended, what became of them.
 */
import type { Button, KnownBlock } from '@slack/types';
import type { Change } from '../../changes/change.js';
import { count } from '../../format/english.js';
import type { EndResult } from '../../releases/releases.js';
import type { ReleaseRecord } from '../../store/types.js';
import { RELEASE_END_CHOICE_ACTIONS, type ReleaseEndValue } from '../ids.js';
import { LIMITS } from '../limits.js';
import { escapeFit, finish, joinMapped, mention, packItems, section } from './blocks.js';
import { spokenLabel } from './buttons.js';
import type { SlackMessage } from './message.js';
import { changeLink, linked } from './permalink.js';
import { renderReleaseEnded } from './release-message.js';

const NAME_MAX = 200;
const SUMMARY_MAX = 300;

const STATUS_WORDS: Partial<Record<Change['status'], string>> = {
  pending: 'waits for its requester to confirm',
  awaiting_approval: 'waits for approval',
  approved: 'approved, waits for its requester to confirm',
};

/** The question asked before ending a release whose changes still wait. */
export function renderEndChoice(
  release: ReleaseRecord,
  waiting: readonly Change[],
  digest: string,
): SlackMessage {
  const title = escapeFit(release.title, NAME_MAX);
  const intro = `${count(waiting.length, 'change')} of release *${title}* still ${waiting.length === 1 ? 'waits' : 'wait'}. Ending the release does not decide for ${waiting.length === 1 ? 'it' : 'them'}: choose.`;
  const value: ReleaseEndValue = { release: release.id, version: release.version, digest };
  const blocks: KnownBlock[] = [
    section(intro),
    ...packItems(waiting, changeLine, { maxBlocks: 6 }),
    {
      type: 'actions',
      block_id: 'release.end.choice',
      elements: [
        choiceButton(
          'cancel',
          `Cancel ${waiting.length === 1 ? 'it' : 'them'} and end`,
          value,
          release.title,
        ),
        choiceButton('keep', `Keep ${waiting.length === 1 ? 'it' : 'them'} and end`, value, release.title),
      ],
    },
  ];
  return finish(`${intro} Cancel them and end, or keep them and end.`, blocks);
}

/** The private answer to whoever ended the release: the summary's whereabouts and what became of its waiting changes. */
export function renderEndAnswer(result: Extract<EndResult, { kind: 'ended' }>): SlackMessage {
  const base = renderReleaseEnded(result.release, result.tailsStopped);
  const lines: string[] = [];
  if (result.cancelled.length)
    lines.push(
      `Cancelled ${joinMapped(
        result.cancelled.map((o) => o.change),
        summaryOf,
        LIMITS.sectionText / 3,
        ', ',
      )}.`,
    );
  if (result.notCancelled.length)
    lines.push(
      `Could not cancel ${joinMapped(result.notCancelled, (n) => `${summaryOf(n.change)} (${escapeFit(n.reason, SUMMARY_MAX)})`, LIMITS.sectionText / 3, ', ')}: ${result.notCancelled.length === 1 ? 'it still waits' : 'they still wait'} in the thread.`,
    );
  if (result.kept.length)
    lines.push(
      `Kept ${joinMapped(result.kept, summaryOf, LIMITS.sectionText / 3, ', ')}: ${result.kept.length === 1 ? 'it still waits' : 'they still wait'} in the thread.`,
    );
  if (!lines.length) return base;
  const text = `${base.text} ${lines.join(' ')}`;
  return finish(text, [...base.blocks, ...lines.map((l) => section(l))]);
}

function choiceButton(
  choice: keyof typeof RELEASE_END_CHOICE_ACTIONS,
  label: string,
  value: ReleaseEndValue,
  title: string,
): Button {
  return {
    type: 'button',
    action_id: RELEASE_END_CHOICE_ACTIONS[choice],
    text: { type: 'plain_text', text: label },
    value: JSON.stringify(value),
    accessibility_label: spokenLabel(label, `release ${title}`),
    ...(choice === 'cancel' ? { style: 'danger' as const } : {}),
  };
}

function summaryOf(c: Change): string {
  return `*${linked(escapeFit(c.preview.summary, SUMMARY_MAX), changeLink(c))}*`;
}

function changeLine(c: Change): string {
  // Confirmed ahead of its time (issue 41), it waits for the scheduler, not for its requester.
  const words =
    c.status === 'approved' && c.scheduledAt !== undefined
      ? 'scheduled, waits for its time'
      : (STATUS_WORDS[c.status] ?? c.status);
  return `• ${summaryOf(c)} — ${words} (requested by ${mention(c.requester)})`;
}
