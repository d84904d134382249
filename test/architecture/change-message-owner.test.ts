/**
 * A change's Slack message has one owner (issue 25, point 1):
 * `slack/change-messages/` alone posts and rewrites it, its thread replies
 * and its ask for approval, redrawing on the engine's change events. So
 * nothing else in src/ reaches the renderers of those messages or the
 * owner's drawing files (only its face, owner.ts, and its deps type), and
 * the engine carries no drawing callbacks or drawn-state bookkeeping.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph } from './import-graph.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');
const ROOM = 'slack/change-messages/';
/** What draws a change's message and its thread replies: the owner's to call. */
const DRAWING = [
  'slack/render/change-message.ts',
  // Its parts, one per state and section (they import each other; nothing else may).
  'slack/render/change-open.ts',
  'slack/render/change-applied.ts',
  'slack/render/change-closed.ts',
  'slack/render/change-frame.ts',
  'slack/render/change-notes.ts',
  'slack/render/change-rollback-offer.ts',
  'slack/render/notices.ts',
  'slack/render/follow.ts',
  `${ROOM}draw.ts`,
  `${ROOM}ask-reply.ts`,
  `${ROOM}notify.ts`,
  `${ROOM}follow-ups.ts`,
];

/** The message's own parts, which draw it together (render/change-*.ts). */
const CHANGE_MESSAGE_PARTS = /^slack\/render\/change-[a-z-]+\.ts$/;

function edges(): (readonly [string, string])[] {
  return [...importGraph(SRC)].flatMap(([from, tos]) => tos.map((to) => [from, to] as const));
}

it('only the change-message owner imports what draws a change message and its thread replies', () => {
  const all = edges();
  // The check sees what it is meant to: the owner does draw with them.
  expect(all.some(([from, to]) => from === `${ROOM}draw.ts` && to === 'slack/render/change-message.ts')).toBe(
    true,
  );
  const outside = all.filter(
    ([from, to]) => DRAWING.includes(to) && !from.startsWith(ROOM) && !CHANGE_MESSAGE_PARTS.test(from),
  );
  expect(outside).toEqual([]);
});

it('the rest of the bot reaches the owner only through its face (owner.ts) and its deps', () => {
  const outside = edges().filter(
    ([from, to]) =>
      to.startsWith(ROOM) && !from.startsWith(ROOM) && to !== `${ROOM}owner.ts` && to !== `${ROOM}deps.ts`,
  );
  expect(outside).toEqual([]);
});

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

it('the change engine has no drawing callbacks and keeps no drawn state', () => {
  // Words of the old drawing hooks: a callback for a claimed apply, drawn-state bookkeeping.
  const HOOKS = /\b(onClaimed|markDrawn|drawnStatus|undrawnFinal|noteState|rewriteChangeMessage)\b/;
  const found: string[] = [];
  for (const file of tsFiles(join(SRC, 'changes'))) {
    const text = readFileSync(file, 'utf8');
    const hit = HOOKS.exec(text);
    if (hit) found.push(`${relative(SRC, file)}: ${hit[1]}`);
    for (const match of text.matchAll(/from '([^']+)'/g)) {
      if (/slack\//.test(match[1] as string)) found.push(`${relative(SRC, file)} -> ${match[1]}`);
    }
  }
  expect(found).toEqual([]);
});
