/** How a tail's messages look in Slack: the renderers of render/tail-message.ts, for the neutral TailRunner. */
import type { TailDrawing } from '../../tails/messenger.js';
import { MAX_LINE_CHARS } from '../render/log-lines.js';
import type { SlackMessage } from '../render/message.js';
import {
  renderFinalTail,
  renderFrozenTail,
  renderLiveTail,
  TAIL_LINES_BUDGET,
  tailLineCost,
} from '../render/tail-message.js';

export const slackTailDrawing: TailDrawing<SlackMessage> = {
  live: renderLiveTail,
  frozen: renderFrozenTail,
  final: renderFinalTail,
  lineCost: tailLineCost,
  linesBudget: TAIL_LINES_BUDGET,
  maxLineChars: MAX_LINE_CHARS,
};
