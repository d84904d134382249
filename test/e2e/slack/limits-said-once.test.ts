/**
 * Issue 30, point 6: a limit a person can run into is stated the same way
 * wherever they meet it. A name's rule (characters and length) reads the
 * same in the form's hint, in the form's refusal, and in the command's
 * refusal; `--lines` reads the same in help and in the refusal. (Replica
 * counts are the fleets issue's.)
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { MAX_NAME_LENGTH, MAX_REGION_NAME_LENGTH } from '../../../src/api-shapes/names.js';
import type { StoredView } from '../../../src/workspace/stand-in.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

function hintOf(view: StoredView | undefined, blockId: string): string {
  const block = ((view?.blocks ?? []) as { block_id?: string; hint?: { text: string } }[]).find(
    (b) => b.block_id === blockId,
  );
  return block?.hint?.text ?? '';
}

const tooLong = 'v'.repeat(MAX_NAME_LENGTH + 1);

it('a vessel name’s length and characters read the same in the form, its refusal and the command’s refusal', async () => {
  const stated = `at most ${MAX_NAME_LENGTH} characters`;
  await h.slash('vessel create dev', ALICE);
  const viewId = openedViewId(h);
  const view = h.slack.view(viewId);
  expect(hintOf(view, 'name')).toContain(stated);
  expect(hintOf(view, 'name')).toContain("Lowercase letters, digits, '-' and '.'");
  const refused = await h.submit(
    viewId,
    answers(view as StoredView, {
      name: tooLong,
      region: 'eu-central',
      'container.image': 'game-server:1.2.0',
    }),
  );
  expect(JSON.stringify(refused.body)).toContain(stated);

  await h.slash('formation add dev lobby Bad_Name eu-central', ALICE);
  expect(h.ephemeralTexts(ALICE).at(-1)).toContain("may contain only lowercase letters, digits, '-' and '.'");
  await h.slash(`formation add dev lobby ${tooLong} eu-central`, ALICE);
  expect(h.ephemeralTexts(ALICE).at(-1)).toContain(stated);
  await h.slash('formation add dev lobby', ALICE);
  expect(hintOf(h.slack.view(openedViewId(h)), 'vessel')).toContain(stated);
});

it('a region name’s limit comes from the one constant in the form', async () => {
  await h.slash('region create dev', ALICE);
  expect(hintOf(h.slack.view(openedViewId(h)), 'name')).toContain(
    `at most ${MAX_REGION_NAME_LENGTH} characters`,
  );
});

it('`--lines` reads the same in help and in its refusal', async () => {
  await h.slash('help logs', ALICE);
  expect(
    shown(
      h.slack
        .ephemerals()
        .filter((e) => e.user === ALICE.id)
        .at(-1),
    ),
  ).toContain('1 to 1000');
  await h.slash('logs dev lobby-1 --lines 5000', ALICE);
  expect(h.ephemeralTexts(ALICE).at(-1)).toContain('1 to 1000');
});
