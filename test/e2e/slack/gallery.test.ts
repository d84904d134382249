/**
 * The message gallery: renders every message and modal the bot draws over
 * the demo data (scenarios in gallery/scenarios.ts) into docs/message-gallery.md,
 * and fails when the checked-in file differs, so a reviewer reads every word
 * the bot can say in one place and sees each change to it in review.
 * `npm run gallery` rewrites the file (HARBOR_WRITE_GALLERY=1). The same
 * renderings are checked for grammar (counts, articles) and for user text
 * shown as code.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { article } from '../../../src/format/english.js';
import { readableText } from './gallery/collect.js';
import { type GalleryEntry, galleryMarkdown } from './gallery/markdown.js';
import { runScenario } from './gallery/scenario.js';
import { SCENARIOS, USER_MRKDWN } from './gallery/scenarios.js';

const GALLERY = new URL('../../../docs/message-gallery.md', import.meta.url);

let entries: GalleryEntry[] = [];
// Every scenario runs the whole bot in turn (92 since issue 38): about 25 s on a quiet
// machine, so the bound leaves room for a loaded one without hiding a scenario that hangs.
beforeAll(async () => {
  entries = [];
  for (const scenario of SCENARIOS) entries.push(await runScenario(scenario));
}, 180_000);

/** Every line a person reads, with where it came from. */
function readLines(): { where: string; line: string }[] {
  return entries.flatMap((e) =>
    e.surfaces.flatMap((s) =>
      [...(s.text ?? '').split('\n'), ...readableText(s.blocks ?? []), s.title ?? ''].map((line) => ({
        where: `${e.title} / ${s.via}`,
        line,
      })),
    ),
  );
}

// Code spans are what the user typed or a name; grammar is checked outside them.
const prose = (line: string) => line.replace(/`[^`]*`/g, '`…`');

describe('message gallery', () => {
  it('docs/message-gallery.md shows what the bot draws today (run `npm run gallery` to update it)', async () => {
    const markdown = galleryMarkdown(entries);
    if (process.env.HARBOR_WRITE_GALLERY === '1') await writeFile(GALLERY, markdown);
    const checkedIn = await readFile(GALLERY, 'utf8').catch(() => '');
    expect(checkedIn).toBe(markdown);
  });

  it('counts agree with their nouns: "1 approval", never "1 approvals" or "(1 steps done)"', () => {
    const wrong = readLines().filter(({ line }) =>
      /(^|[\s(])1 (?!(is|was|has|its|this)\b)[a-z]+s\b/.test(prose(line)),
    );
    expect(wrong).toEqual([]);
  });

  it('articles fit the next word: "an image", "a branch"', () => {
    const wrong = readLines().filter(({ line }) =>
      // Single letters are read by name ("an m suffix"), so only words are checked.
      [...prose(line).matchAll(/\b([Aa]n?) ([a-z][a-z-]+)/g)].some(
        ([, a, word]) => a?.toLowerCase() !== article(word as string),
      ),
    );
    expect(wrong).toEqual([]);
  });

  it('no made-up singulars from cutting an "s" ("Choose branche", "Choose strategie")', () => {
    const wrong = readLines().filter(({ line }) => /\b(branche|strategie|entrie|matche)\b/i.test(line));
    expect(wrong).toEqual([]);
  });

  it('user text with mrkdwn in it is shown as code wherever it appears, so it stays literal', () => {
    const lines = readLines().filter(({ line }) => line.includes(USER_MRKDWN));
    expect(lines.length).toBeGreaterThan(0);
    const outsideCode = lines.filter(({ line }) =>
      line
        .split(USER_MRKDWN)
        .slice(0, -1)
        .some((before, i, parts) => {
          const ticks = (
            parts
              .slice(0, i + 1)
              .join(USER_MRKDWN)
              .match(/`/g) ?? []
          ).length;
          return ticks % 2 === 0 && before !== undefined;
        }),
    );
    expect(outsideCode).toEqual([]);
  });
});
