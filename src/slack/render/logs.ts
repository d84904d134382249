/** The one-shot `/harbor logs` answer: the last lines of a Vessel's log in one message. */

import { noun } from '../../format/english.js';
import { escapeMrkdwn, LIMITS } from './limits.js';
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
  if (lines.length === 0) {
    const text = `No log lines from ${where} yet.`;
    return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
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
    ],
  };
}
