/**
 * What a form shows when a submission was refused for a reason only the API
 * could find: a banner on top, or a line right under the field it is about.
 */
import type { KnownBlock } from '@slack/types';
import { LIMITS, truncate } from '../limits.js';

/** Block id of the banner, so tests and reloads can find it. */
const PROBLEM_BLOCK = 'problem';

/** `:warning:` and the problem (already mrkdwn), then what to do; the form below keeps what the user entered. */
export function problemBlock(problem: string): KnownBlock {
  const text = `:warning: ${problem}\nNothing was changed. Fix the form below and press Preview again.`;
  return {
    type: 'section',
    block_id: PROBLEM_BLOCK,
    text: { type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) },
  };
}

/** Block id of a field's problem line. */
const FIELD_PROBLEM_BLOCK = 'field-problem';

/** The problem (already mrkdwn) as a line under the field it is about; the field keeps what the user typed. */
export function fieldProblemBlock(problem: string): KnownBlock {
  return {
    type: 'context',
    block_id: FIELD_PROBLEM_BLOCK,
    elements: [
      { type: 'mrkdwn', text: truncate(`:warning: ${problem} Nothing was changed.`, LIMITS.contextText) },
    ],
  };
}
