/**
 * The message gallery: renders every message and modal the bot draws over
 * the demo data (scenarios in gallery/scenarios.ts) into docs/message-gallery.md,
 * and fails when the checked-in file differs, so a reviewer reads every word
 * the bot can say in one place and sees each change to it in review.
 * `npm run gallery` rewrites the file (HARBOR_WRITE_GALLERY=1).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { expect, it } from '@jest/globals';
import { galleryMarkdown } from './gallery/markdown.js';
import { runScenario } from './gallery/scenario.js';
import { SCENARIOS } from './gallery/scenarios.js';

const GALLERY = new URL('../../../docs/message-gallery.md', import.meta.url);

it('docs/message-gallery.md shows what the bot draws today (run `npm run gallery` to update it)', async () => {
  const entries = [];
  for (const scenario of SCENARIOS) {
    process.stderr.write(`scenario ${scenario.title}\n`);
    entries.push(await runScenario(scenario));
  }
  const markdown = galleryMarkdown(entries);
  if (process.env.HARBOR_WRITE_GALLERY === '1') await writeFile(GALLERY, markdown);
  const checkedIn = await readFile(GALLERY, 'utf8').catch(() => '');
  expect(checkedIn).toBe(markdown);
}, 60_000);
