import { describe, expect, it } from '@jest/globals';
import type { KnownBlock } from '@slack/types';
import { messageProblems } from '../../../src/slack/limits.js';
import {
  context,
  finish,
  fitMrkdwn,
  groupMention,
  joinMapped,
  mention,
  packLines,
  slackDate,
} from '../../../src/slack/render/blocks.js';
import { actions, changeButton } from '../../../src/slack/render/buttons.js';
import { NOW } from './fixtures.js';

describe('fitMrkdwn', () => {
  it('leaves short text alone', () => {
    expect(fitMrkdwn('a &amp; b', 20)).toBe('a &amp; b');
  });

  it('never leaves half an entity or half a <…> token at the cut', () => {
    expect(fitMrkdwn('abc &amp; def', 7)).toBe('abc …');
    expect(fitMrkdwn('hi <@U123> there', 8)).toBe('hi …');
    expect(fitMrkdwn('x'.repeat(50), 10)).toHaveLength(10);
  });
});

describe('mentions and dates', () => {
  it('builds mentions and drops characters that could break out of them', () => {
    expect(mention('U123')).toBe('<@U123>');
    expect(mention('U1><!channel')).toBe('<@U1channel>');
    expect(groupMention('S9')).toBe('<!subteam^S9>');
  });

  it('writes the Slack date token with a UTC fallback', () => {
    expect(slackDate(NOW)).toBe(`<!date^${NOW / 1000}^{date_short_pretty} {time}|2025-01-15 12:00 UTC>`);
  });
});

describe('packLines', () => {
  it('puts everything in one section when it fits', () => {
    const blocks = packLines(['a', 'b', 'c'], { maxBlocks: 3 });
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.text?.text).toBe('a\nb\nc');
  });

  it('spreads over sections and ends in "… and N more" when out of room', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`);
    const blocks = packLines(lines, { maxBlocks: 3 });
    expect(blocks).toHaveLength(3);
    expect(blocks[2]?.text?.text).toMatch(/… and \d+ more$/);
    for (const b of blocks) expect(b.text?.text.length).toBeLessThanOrEqual(3000);
  });

  it('cuts a single huge line instead of dropping it', () => {
    const blocks = packLines(['y'.repeat(10_000)], { maxBlocks: 2, maxLineLength: 5000 });
    expect(blocks[0]?.text?.text.length).toBe(3000);
  });
});

describe('joinMapped', () => {
  it('joins what fits, counts the rest, and renders only until the text is full', () => {
    const rendered: number[] = [];
    const out = joinMapped(
      Array.from({ length: 100_000 }, (_, i) => i),
      (i) => {
        rendered.push(i);
        return `item-${i}`;
      },
      40,
      ', ',
    );
    expect(out).toBe('item-0, item-1, item-2, … and 99997 more');
    expect(rendered.length).toBeLessThan(10);
  });

  it('joins everything when it fits', () => {
    expect(joinMapped(['a', 'b'], (s) => s.toUpperCase(), 10, ', ')).toBe('A, B');
  });
});

describe('finish', () => {
  it('keeps at most 50 blocks, notes what was left out and keeps the buttons', () => {
    const blocks: KnownBlock[] = Array.from({ length: 80 }, (_, i) => context(`block ${i}`));
    blocks.push(actions([changeButton('confirm', 'chg-1', 'Promote game-server:1.2.0 from dev to prod')]));
    const msg = finish('t', blocks);
    expect(msg.blocks).toHaveLength(50);
    expect(msg.blocks[49]?.type).toBe('actions');
    expect(JSON.stringify(msg.blocks[48])).toContain('32 more sections left out');
    expect(messageProblems(msg)).toEqual([]);
  });

  it('cuts the fallback text to the message limit', () => {
    expect(finish('z'.repeat(9000), [context('c')]).text).toHaveLength(4000);
  });
});
