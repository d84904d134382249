import { describe, expect, it } from '@jest/globals';
import { parseCommand } from '../../../src/slack/grammar/parse.js';
import { messageProblems } from '../../../src/slack/limits.js';
import { renderUsage } from '../../../src/slack/render/help.js';

// mulberry32: a small seeded generator, so every run tries the same strings.
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces that steer random text into the parser's deeper paths.
const PIECES = [
  'help',
  'images',
  'image',
  'promote',
  'vessels',
  'vessel',
  'create',
  'delete',
  'formation',
  'show',
  'add',
  'remove',
  'region',
  'scheduling',
  'approvals',
  'history',
  'logs',
  'release',
  'start',
  'end',
  'from',
  'to',
  'Packed',
  'distributed',
  'dev',
  'prod',
  'gs:1.2.0',
  ':',
  '::',
  'gs:',
  '--container',
  '--image',
  '--args',
  '--follow',
  '--lines',
  '--lines=',
  '—follow',
  '–lines',
  '-f',
  '--',
  '—',
  '"',
  "'",
  '“',
  '”',
  '‘',
  '’',
  '„',
  '=',
  '="',
  '<http://x|x>',
  '<mailto:a@b|a@b>',
  '<',
  '>',
  '|',
  '&amp;',
  '&lt;',
  '\u00a0',
  '\u200b',
  ' ',
  '  ',
  '\t',
  '\n',
  '0',
  '50',
  '1000',
  '1001',
  '-1',
  'constructor',
  '__proto__',
  '`',
  '*',
  '_',
  '~',
  '\\',
];

function randomText(next: () => number): string {
  const mode = next();
  const length = Math.floor(next() * 14);
  const parts: string[] = [];
  for (let i = 0; i < length; i++) {
    if (mode < 0.6) {
      parts.push(PIECES[Math.floor(next() * PIECES.length)] as string);
      if (next() < 0.7) parts.push(' ');
    } else {
      // Any code unit, lone surrogates included: Slack may hand us broken text.
      const n = 1 + Math.floor(next() * 8);
      for (let j = 0; j < n; j++) parts.push(String.fromCharCode(Math.floor(next() * 0x10000)));
      if (next() < 0.5) parts.push(' ');
    }
  }
  return parts.join('');
}

describe('parseCommand is total', () => {
  it('answers 2000 seeded random strings without throwing, each answer renderable within limits', () => {
    const next = random(20240611);
    let failures = 0;
    for (let i = 0; i < 2000; i++) {
      const text = randomText(next);
      const result = parseCommand(text, '/harbor');
      expect(typeof result.ok).toBe('boolean');
      if (!result.ok) {
        failures++;
        expect(result.usage.problem.length).toBeGreaterThan(0);
        expect(Array.isArray(result.usage.forms)).toBe(true);
        expect(messageProblems(renderUsage('/harbor', result.usage))).toEqual([]);
      }
      expect(parseCommand(text, '/harbor')).toEqual(result);
    }
    // Random text should mostly be refused; all-accepted would mean the parser stopped checking.
    expect(failures).toBeGreaterThan(1000);
  });

  it('answers very long input', () => {
    const words = Array.from({ length: 2000 }, (_, i) => (i % 3 === 0 ? '"a' : 'formation'));
    for (const text of [words.join(' '), `formation add ${words.join(' ')}`, 'x'.repeat(40000)]) {
      const result = parseCommand(text);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(messageProblems(renderUsage('/harbor', result.usage))).toEqual([]);
    }
  });
});
