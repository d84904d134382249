/**
 * The messages of a live log tail: the "Tailing <vessel>" thread parent, the
 * live message (newest lines, counts, Stop), a frozen part left behind by a
 * rollover, the final state saying why the tail stopped, and a takeover
 * notice. Every line goes through codeBlock, so log text can neither break
 * out of the code block nor push a message past Slack's limits.
 */
import type { KnownBlock } from '@slack/types';
import { formatSpan } from '../../format/duration.js';
import { noun } from '../../format/english.js';
import type { TailMessageInput, TailSubject } from '../../tails/messenger.js';
import type { RingLine } from '../../tails/ring-buffer.js';
import type { TailStopReason } from '../../tails/stop-reason.js';
import { TAIL_ACTIONS } from '../ids.js';
import { escapeMrkdwn, LIMITS, truncate } from '../limits.js';
import { slackDate } from './blocks.js';
import { codeBlock, codeLine } from './log-lines.js';
import type { SlackMessage } from './message.js';

/** Characters the lines of one message may use: a section minus the two fences and their newlines. */
export const TAIL_LINES_BUDGET = LIMITS.sectionText - 8;

/** What a tail's line costs inside TAIL_LINES_BUDGET (escaped, plus its newline), as codeBlock counts it. */
export function tailLineCost(line: Pick<RingLine, 'text'>): number {
  return codeLine(line.text).length + 1;
}

/** The top-level message a new tail thread hangs under. */
export function renderTailParent(subject: TailSubject, user: string): SlackMessage {
  const text = truncate(
    `Tailing *${escapeMrkdwn(subject.vessel)}* (${where(subject)}) for <@${user}>. Live lines in the thread.`,
    LIMITS.sectionText,
  );
  return {
    text: truncate(`Tailing ${subject.vessel} (${subject.env})`, LIMITS.messageText),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
  };
}

/** The parent once the tail has stopped: who tailed what, why and when it stopped. */
export function renderStoppedTailParent(
  subject: TailSubject,
  user: string,
  reason: TailStopReason,
  at: number,
): SlackMessage {
  const text = truncate(
    `Tailed *${escapeMrkdwn(subject.vessel)}* (${where(subject)}) for <@${user}>; ${describeTailStop(reason)} ${slackDate(at)}. The last lines are in the thread.`,
    LIMITS.sectionText,
  );
  return {
    text: truncate(`Tailed ${subject.vessel} (${subject.env}): stopped`, LIMITS.messageText),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
  };
}

/** The live message: header with counts, the newest lines, and a Stop button carrying the tail id. */
export function renderLiveTail(input: TailMessageInput): SlackMessage {
  const status = `live · ${countsText(input)}`;
  return {
    text: fallback(input, status),
    blocks: [
      header(input, status),
      linesBlock(input.lines, '_Waiting for log lines…_'),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: TAIL_ACTIONS.stop,
            text: { type: 'plain_text', text: 'Stop' },
            accessibility_label: truncate(
              `Stop tailing logs of ${input.vessel} in ${input.env}${input.container ? `, container ${input.container}` : ''}`,
              LIMITS.accessibilityLabel,
            ),
            value: input.tailId,
          },
        ],
      },
    ],
  };
}

/** A message the tail left for a new one: its lines stay, the button goes. `part` is 1-based. */
export function renderFrozenTail(input: TailMessageInput & { part: number }): SlackMessage {
  const status = `part ${input.part} · continued below`;
  return {
    text: fallback(input, status),
    blocks: [header(input, status), linesBlock(input.lines, '_No log lines in this part._')],
  };
}

/** The last state of a tail: why it stopped, its last lines, what was seen and never shown. */
export function renderFinalTail(input: TailMessageInput & { reason: TailStopReason }): SlackMessage {
  const status = `${describeTailStop(input.reason)} · ${input.seen} ${noun(input.seen, 'line')} seen · ${input.neverShown} never shown`;
  return {
    text: fallback(input, status),
    blocks: [header(input, status), linesBlock(input.lines, '_No log lines were seen._')],
  };
}

/** The thread notice a replica posts when it takes over a tail whose owner went quiet. */
export function renderTakeover(subject: TailSubject, replica: string): SlackMessage {
  const text = truncate(
    `Taken over by replica \`${escapeMrkdwn(replica)}\`: the replica that followed *${escapeMrkdwn(subject.vessel)}* stopped answering. Lines written in between are lost; the counts go on.`,
    LIMITS.sectionText,
  );
  return {
    text: truncate(`Taken over by replica ${replica}`, LIMITS.messageText),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }],
  };
}

/** Why a tail stopped, as a short mrkdwn phrase (escaped). */
export function describeTailStop(reason: TailStopReason): string {
  switch (reason.kind) {
    case 'stopped':
      return reason.by ? `stopped by <@${escapeMrkdwn(reason.by)}>` : 'stopped';
    case 'release_ended':
      return 'stopped: the release ended';
    case 'vessel_deleted':
      return 'stopped: the Vessel was deleted';
    case 'max_duration':
      return `stopped after the maximum duration (${formatSpan(reason.afterMs)})`;
    case 'api_error':
      return `stopped: ${escapeMrkdwn(truncate(reason.message, 500))}`;
    case 'gave_up':
      return `stopped: gave up after ${reason.attempts} ${noun(reason.attempts, 'reconnect')} (${escapeMrkdwn(truncate(reason.message, 400))})`;
  }
}

function header(subject: TailSubject, status: string): KnownBlock {
  const text = truncate(
    `*${escapeMrkdwn(subject.vessel)}* · ${where(subject)} · ${status}`,
    LIMITS.contextText,
  );
  return { type: 'context', elements: [{ type: 'mrkdwn', text }] };
}

function linesBlock(lines: readonly Pick<RingLine, 'text'>[], empty: string): KnownBlock {
  const text = lines.length
    ? codeBlock(
        lines.map((l) => l.text),
        LIMITS.sectionText,
      ).text
    : empty;
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

function where(subject: TailSubject): string {
  const env = escapeMrkdwn(subject.env);
  return subject.container ? `${env} · container ${escapeMrkdwn(subject.container)}` : env;
}

function countsText(input: Pick<TailMessageInput, 'seen' | 'neverShown'>): string {
  return `${input.seen} ${noun(input.seen, 'line')} seen · ${input.neverShown} not shown`;
}

// Notification text: plain, no mrkdwn, so names are not escaped.
function fallback(subject: TailSubject, status: string): string {
  const container = subject.container ? `, container ${subject.container}` : '';
  return truncate(`${subject.vessel} (${subject.env}${container}): ${status}`, LIMITS.messageText);
}
