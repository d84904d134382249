/**
 * Log lines as a mrkdwn code block: escaped (log lines are full of `<`, `>`
 * and `&`), with backtick runs broken so a line cannot close the block, and
 * trimmed from the oldest end to a character budget. Shared by the one-shot
 * `logs` answer and live tails.
 */
import { escapeMrkdwn } from '../limits.js';

const FENCE = '```';
/** Longest line kept whole; longer lines are cut (a single line must never eat the message). */
export const MAX_LINE_CHARS = 500;

/** One log line as it goes inside a code block. */
export function codeLine(line: string): string {
  const cut = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line;
  // A zero-width space between backticks keeps a line from ending the block early.
  return escapeMrkdwn(cut).replace(/`(?=`)/g, '`\u200b');
}

/**
 * The newest lines that fit in `maxChars` (fences included) as a code block,
 * and how many of the given lines were left out (the oldest ones).
 */
export function codeBlock(
  lines: readonly string[],
  maxChars: number,
): { text: string; shown: number; omitted: number } {
  const budget = maxChars - FENCE.length * 2 - 2;
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = codeLine(lines[i] as string);
    if (used + line.length + 1 > budget) break;
    kept.push(line);
    used += line.length + 1;
  }
  kept.reverse();
  const body = kept.length ? kept.join('\n') : ' ';
  return { text: `${FENCE}\n${body}\n${FENCE}`, shown: kept.length, omitted: lines.length - kept.length };
}
