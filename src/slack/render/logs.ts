/** The one-shot `/harbor logs` answer: the last lines of a Vessel's log in one message. */

import type { KnownBlock } from '@slack/types';
import { noun } from '../../format/english.js';
import { TAIL_ACTIONS, type TailStartValue } from '../ids.js';
import { escapeMrkdwn, LIMITS, truncate } from '../limits.js';
import { actions } from './buttons.js';
import { codeBlock } from './log-lines.js';
import type { SlackMessage } from './message.js';

/** Renders `lines` (oldest first) for `vessel`; says how many lines did not fit. */
export function renderLogSnapshot(
  environment: string,
  vessel: string,
  lines: readonly string[],
  container?: string,
): SlackMessage {
  const where = `${escapeMrkdwn(vessel)} (${escapeMrkdwn(environment)}${container ? `, container ${escapeMrkdwn(container)}` : ''})`;
  const follow = followButton({ environment, vessel, ...(container ? { container } : {}) });
  if (lines.length === 0) {
    const text = `No log lines from ${where} yet.`;
    return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }, ...follow] };
  }
  const block = codeBlock(lines, LIMITS.sectionText);
  const head = `Last ${block.shown} ${noun(block.shown, 'log line')} of ${where}`;
  const omitted =
    block.omitted > 0 ? ` · ${block.omitted} earlier ${noun(block.omitted, 'line')} did not fit` : '';
  return {
    text: `${head}${omitted}`,
    blocks: [
      { type: 'context', elements: [{ type: 'mrkdwn', text: `${head}${omitted}` }] },
      { type: 'section', text: { type: 'mrkdwn', text: block.text } },
      ...follow,
    ],
  };
}

/**
 * Follow: the live tail of the same vessel (and container), started by the
 * tails' own "Tail logs" route, so a snapshot that showed too little leads on.
 */
function followButton(value: TailStartValue): KnownBlock[] {
  const json = JSON.stringify(value);
  if (json.length > LIMITS.buttonValue) return [];
  return [
    actions([
      {
        type: 'button',
        action_id: TAIL_ACTIONS.start,
        text: { type: 'plain_text', text: 'Follow' },
        accessibility_label: truncate(
          `Follow the logs of ${value.vessel} in ${value.environment} live`,
          LIMITS.accessibilityLabel,
        ),
        value: json,
      },
    ]),
  ];
}
