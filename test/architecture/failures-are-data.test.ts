/**
 * Failures are data, never sentences parsed back (issue 17.4). The type has
 * no message to parse, and the code that settles and draws failures applies no
 * string test to an error's or failure's text: a renderer decides by kind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from '@jest/globals';
import type { ChangeFailure } from '../../src/changes/failure.js';

// Compile-time: no kind of failure carries a `message`; words are the renderer's.
type WithMessage = Extract<ChangeFailure, { message: unknown }>;
const noMessage: [WithMessage] extends [never] ? true : false = true;

const DIRS = ['changes', 'slack/render', 'slack/modals'];
/** A string test, match or rewrite of something that holds an error's or failure's words. */
const PARSING = [
  /\.test\(\s*[\w.?]*\b(message|apiMessage|text|detail)\b/,
  /\b(message|apiMessage)\??\.(match|matchAll|replace|replaceAll|search|split|indexOf|includes|startsWith|endsWith)\(/,
  /\.exec\(\s*[\w.?]*\b(message|apiMessage)\b/,
];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

it('ChangeFailure has no free-form message', () => {
  expect(noMessage).toBe(true);
});

it('nothing in changes/ or the renderers parses a message', () => {
  const src = join(process.cwd(), 'src');
  const found: string[] = [];
  for (const dir of DIRS) {
    for (const file of tsFiles(join(src, dir))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (PARSING.some((p) => p.test(line)))
            found.push(`${relative(src, file)}:${i + 1}: ${line.trim()}`);
        });
    }
  }
  expect(found).toEqual([]);
});

it('the check catches the shapes it is for', () => {
  const hits = [
    'if (/could not be checked/i.test(failure.message)) return false;',
    "const trimmed = message.replace(/;? nothing was changed\\.?/i, '.');",
    'const i = err.message.indexOf(": ");',
  ].filter((line) => PARSING.some((p) => p.test(line)));
  expect(hits).toHaveLength(3);
});
