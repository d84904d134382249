/**
 * Issue 13, "History": `/harbor history [<env-or-name>]` shows recent changes
 * from the audit log (who, what, when, the outcome, a link to the message),
 * newest first, ten at a time with an Older button.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS, HISTORY_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import type { EphemeralMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, BOB, type BotHarness, CAROL, startBotHarness } from './bot-harness.js';
import { buttonIds, clickEphemeral, openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

async function historyFor(text: string): Promise<EphemeralMessage> {
  await h.slash(text, BOB);
  const answer = h.slack
    .ephemerals()
    .filter((e) => e.user === BOB.id)
    .at(-1);
  if (!answer) throw new Error('no answer');
  return answer;
}

const link = (ts: string) => `https://slack.com/archives/${TEST_CHANNEL.id}/p${ts.replace('.', '')}`;

it('lists outcomes newest first with who, when and a link, and filters by environment or name', async () => {
  await h.slash('promote game-server:1.1.0 from dev to staging');
  const staging = h.lastMessage();
  await h.click(staging, CHANGE_ACTIONS.confirm, ALICE);
  await h.slash('promote game-server:1.2.0 from dev to prod');
  const prod = h.lastMessage();
  await h.click(prod, CHANGE_ACTIONS.reject, CAROL);
  await h.submit(
    openedViewId(h),
    { reason: { reason: { type: 'plain_text_input', value: 'freeze' } } },
    CAROL,
  );

  const all = shown(await historyFor('history'));
  expect(all).toContain('Recent changes');
  const rejected = all.indexOf(`:no_entry: *<${link(prod.ts)}|Promote game-server:1.2.0 from dev to prod>*`);
  const done = all.indexOf(`:white_check_mark: *<${link(staging.ts)}|Promoted game-server:1.1.0`);
  expect(rejected).toBeGreaterThan(-1);
  expect(done).toBeGreaterThan(rejected);
  expect(all).toContain(`Rejected <!date^`);
  expect(all).toContain(`requested by <@${ALICE.id}> · by <@${CAROL.id}> — \`freeze\``);
  expect(all).toContain(`applied by <@${ALICE.id}>`);

  const prodOnly = shown(await historyFor('history prod'));
  expect(prodOnly).toContain('Recent changes of prod');
  expect(prodOnly).toContain('1.2.0');
  expect(prodOnly).not.toContain('1.1.0');

  expect((await historyFor('history lobby')).text).toMatch(/^The audit log holds no changes of lobby yet/);
});

it('pages back ten at a time with Older', async () => {
  for (let i = 0; i < 12; i++) {
    await h.slash('promote game-server:1.2.0 from dev to staging');
    await h.click(h.lastMessage(), CHANGE_ACTIONS.cancel, ALICE);
  }
  const first = await historyFor('history staging');
  expect(shown(first).match(/Cancelled <!date/g)).toHaveLength(10);
  expect(buttonIds(first)).toEqual([HISTORY_ACTIONS.older]);

  await clickEphemeral(h, first, HISTORY_ACTIONS.older, BOB);
  const older = h.slack.ephemerals().find((e) => e.messageTs === first.messageTs);
  expect(older?.text).toBe('Older changes of staging');
  expect(shown(older).match(/Cancelled <!date/g)).toHaveLength(2);
  expect(buttonIds(older)).toEqual([]);
});
