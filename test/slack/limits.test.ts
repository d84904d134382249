import { describe, expect, it } from '@jest/globals';
import type { KnownBlock } from '@slack/types';
import {
  escapeMrkdwn,
  joinWithMore,
  messageProblems,
  takeWithMore,
  truncate,
  viewProblems,
} from '../../src/slack/limits.js';

describe('text helpers', () => {
  it('escapes the three mrkdwn control characters', () => {
    expect(escapeMrkdwn('a < b && c > d')).toBe('a &lt; b &amp;&amp; c &gt; d');
  });

  it('truncates with an ellipsis only when needed', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('0123456789abc', 10)).toBe('012345678…');
  });

  it('joins everything when it fits, and says how many were left out when not', () => {
    expect(joinWithMore(['A', 'B'], 10, ', ')).toBe('A, B');
    const items = Array.from({ length: 100 }, (_, i) => `item-${i}`);
    const joined = joinWithMore(items, 60);
    expect(joined.length).toBeLessThanOrEqual(60);
    const shown = joined.split('\n').filter((l) => l.startsWith('item-')).length;
    expect(joined.endsWith(`… and ${100 - shown} more`)).toBe(true);
  });

  it('keeps at most max items, the last one saying how many more', () => {
    expect(takeWithMore([1, 2, 3, 4, 5], 3, (n) => -n)).toEqual([1, 2, -3]);
    expect(takeWithMore([1, 2], 3, (n) => -n)).toEqual([1, 2]);
  });
});

describe('surface checks', () => {
  const section = (text: string): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });

  it('finds oversized text, too many blocks and long button values', () => {
    const problems = messageProblems({
      text: 'x'.repeat(4001),
      blocks: [
        ...Array.from({ length: 50 }, () => section('ok')),
        section('y'.repeat(3001)),
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: 'a',
              text: { type: 'plain_text', text: 'Go' },
              value: 'v'.repeat(2001),
              confirm: {
                title: { type: 'plain_text', text: 'Sure?' },
                text: { type: 'plain_text', text: 'Really' },
                confirm: { type: 'plain_text', text: 'c'.repeat(31) },
                deny: { type: 'plain_text', text: 'No' },
              },
            },
          ],
        },
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'text is 4001 > 4000',
        '52 blocks > 50',
        'blocks[50].text is 3001 > 3000',
        'blocks[51].elements[0].value is 2001 > 2000',
        'blocks[51].elements[0].confirm.confirm is 31 > 30',
      ]),
    );
  });

  it('accepts a small message and checks modal titles', () => {
    expect(messageProblems({ text: 'hi', blocks: [section('hi')] })).toEqual([]);
    expect(
      viewProblems({
        type: 'modal',
        title: { type: 'plain_text', text: 'A title longer than 24 chars' },
        blocks: [],
      }),
    ).toEqual(['title is 28 > 24']);
  });
});
