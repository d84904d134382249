import { describe, expect, it } from '@jest/globals';
import { messageProblems } from '../../../src/slack/limits.js';
import { codeBlock, codeLine } from '../../../src/slack/render/log-lines.js';
import { renderLogSnapshot } from '../../../src/slack/render/logs.js';

describe('log lines in a code block', () => {
  it('escapes mrkdwn and keeps backtick runs from closing the block', () => {
    expect(codeLine('a <b> & c')).toBe('a &lt;b&gt; &amp; c');
    expect(codeLine('x ``` y')).not.toContain('```');
  });

  it('keeps the newest lines that fit and counts the rest', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
    const block = codeBlock(lines, 200);
    expect(block.text.length).toBeLessThanOrEqual(200);
    expect(block.text).toContain('line 999');
    expect(block.shown + block.omitted).toBe(1000);
  });

  it('cuts a single huge line instead of dropping everything', () => {
    const block = codeBlock(['x'.repeat(100_000)], 3000);
    expect(block.shown).toBe(1);
    expect(block.text.length).toBeLessThanOrEqual(3000);
  });
});

describe('renderLogSnapshot', () => {
  it('says how many earlier lines did not fit, within Slack limits', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `${i} <player joined> & ${'z'.repeat(80)}`);
    const message = renderLogSnapshot('dev', 'lobby-1', lines, 'game-server');
    expect(messageProblems(message)).toEqual([]);
    expect(message.text).toMatch(/earlier lines did not fit/);
    expect(JSON.stringify(message.blocks)).toContain('4999 &lt;player joined&gt;');
  });

  it('answers an empty log plainly', () => {
    expect(renderLogSnapshot('dev', 'lobby-1', []).text).toBe('No log lines from lobby-1 (dev) yet.');
  });
});
