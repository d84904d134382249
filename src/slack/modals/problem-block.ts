/** The banner a form shows on top when a submission was refused for a reason only the API could find. */
import type { KnownBlock } from '@slack/types';
import { LIMITS, truncate } from '../render/limits.js';

/** Block id of the banner, so tests and reloads can find it. */
const PROBLEM_BLOCK = 'problem';

/** `:warning:` and the problem (already mrkdwn), then what to do; the form below keeps what the user entered. */
export function problemBlock(problem: string): KnownBlock {
  const text = `:warning: ${problem}\nNothing was changed. Fix the form below and press the button again.`;
  return {
    type: 'section',
    block_id: PROBLEM_BLOCK,
    text: { type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) },
  };
}
