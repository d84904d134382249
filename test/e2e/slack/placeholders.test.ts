/**
 * Issue 30, point 9: select placeholders name one of the things listed, in
 * English: "Choose a region in dev", never "Choose a regions in dev", in
 * every form that lists something of a place (vessel create, formation add
 * and remove, logs, promote, region scheduling, the Armada and ArmadaSet
 * forms). Read from the forms the bot really opens.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { StoredView } from '../../../src/workspace/stand-in.js';
import { type BotHarness, startBotHarness } from './bot-harness.js';
import { openedViewId } from './harness-extras.js';

let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h.stop();
});

/** Every select placeholder of `view`. */
function placeholders(view: StoredView | undefined): string[] {
  const found: string[] = [];
  for (const block of (view?.blocks ?? []) as {
    element?: { type?: string; placeholder?: { text: string } };
  }[]) {
    const el = block.element;
    if (el?.placeholder && /select/.test(el.type ?? '')) found.push(el.placeholder.text);
  }
  return found;
}

it.each([
  ['vessel create dev', 'Choose a region in dev'],
  ['formation add dev lobby', 'Choose a region in dev'],
  ['formation remove dev lobby', 'Choose a vessel in lobby'],
  ['logs dev', 'Choose a vessel in dev'],
  ['promote', 'Choose an image in dev'],
  ['region scheduling dev eu-central', 'Choose a type in eu-central'],
  ['armada scale dev', 'Choose an armada in dev'],
  ['armadaset scale dev', 'Choose an ArmadaSet in dev'],
])('`%s`: placeholders name one thing ("%s")', async (command, expected) => {
  await h.slash(command);
  const shown = placeholders(h.slack.view(openedViewId(h)));
  expect(shown).toContain(expected);
  for (const text of shown) expect(text).not.toMatch(/\ban? \S+s (in|of) /);
});
