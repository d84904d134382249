/**
 * Issue 28, releases: "Roll back release" on the release message posts one
 * preview in the release thread listing every applied change's inverse,
 * newest first; Confirm applies them in that order, the first refusal (a
 * target changed outside Harbormaster after the preview) stops the rest, and
 * the thread says which were rolled back, which not and why.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS, RELEASE_ROLLBACK_ACTION } from '../../../src/slack/ids.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttonIds, current, shown } from './harness-extras.js';
import { latestPreview, startRelease, thread } from './release-helpers.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const entry = (type: string) =>
  h.sim.state.getArmada('dev', 'duel')?.spec.distribution.find((d) => d.name === type);
const scheduling = () => h.sim.state.getRegion('dev', 'eu-central')?.spec.types[0]?.template?.scheduling;

it('rolls back newest first, stops at a target changed outside Harbormaster, and says which were and were not', async () => {
  const release = await startRelease(h, 'Season 9');
  // Nothing applied yet: nothing to roll back, so no button.
  expect(buttonIds(current(h, release))).not.toContain(RELEASE_ROLLBACK_ACTION);
  for (const text of [
    'armada scale dev duel --type baremetal --max 12',
    'armada scale dev duel --type cloud --max 30',
    'region scheduling dev eu-central baremetal Distributed',
  ]) {
    await h.slash(text);
    const preview = latestPreview(h, release);
    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(shown(current(h, preview))).toMatch(/Done/);
  }
  const changes = await h.running.core.store.listChanges({});
  const [oldest, middle, newest] = [...changes].sort((a, b) => a.createdAt - b.createdAt);
  expect(scheduling()).toBe('Distributed');

  await h.click(current(h, release), RELEASE_ROLLBACK_ACTION);
  const preview = latestPreview(h, release);
  const previewText = shown(preview);
  expect(previewText).toContain('Roll back 3 changes of this release, newest first');
  // Newest first.
  expect(previewText.indexOf(`Change ${newest?.id}`)).toBeLessThan(
    previewText.indexOf(`Change ${middle?.id}`),
  );
  expect(previewText.indexOf(`Change ${middle?.id}`)).toBeLessThan(
    previewText.indexOf(`Change ${oldest?.id}`),
  );
  expect(previewText).toContain('the first that is refused stops the rest');

  // Someone changes the middle change's target outside Harbormaster before Confirm.
  const res = await fetch(`${h.sim.url}/api/armada/v1/environments/dev/armadas/duel`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${h.sim.token}`, 'content-type': 'application/json-patch+json' },
    body: JSON.stringify([{ op: 'replace', path: '/spec/distribution/1/maxReplicas', value: 25 }]),
  });
  expect(res.status).toBe(200);
  await h.click(preview, CHANGE_ACTIONS.confirm);

  // The newest was undone; the refused one and the one after it were left alone.
  expect(scheduling()).not.toBe('Distributed');
  expect(entry('cloud')?.maxReplicas).toBe(25);
  expect(entry('baremetal')?.maxReplicas).toBe(12);

  const result = shown(current(h, preview));
  // Two of three were not rolled back: not "Done".
  expect(current(h, preview).text).toMatch(/^Partly done: Rolled back 1 of 3 changes of this release/);
  expect(result).not.toMatch(/\bDone\b/);
  expect(result).toMatch(new RegExp(`Change ${newest?.id}[^\\n]*rolled back: `));
  // The refusal on the refused change's own line, without naming it a second time.
  expect(result).toContain(
    `*Change ${middle?.id}:* not rolled back: armada duel, region type cloud, now has min 0, buffer 2, max 25, set outside Harbormaster since`,
  );
  expect(result).toContain(`not tried, the rollback stopped at change ${middle?.id}`);
  // History says it the same way: partly done, not a check mark.
  await h.slash('history', ALICE);
  const history = shown(
    h.slack
      .ephemerals()
      .filter((e) => e.user === ALICE.id)
      .at(-1) ?? { text: '', blocks: [] },
  );
  expect(history).toMatch(/:warning: \*<[^>]*\|Rolled back 1 of 3 changes of this release>\*\\nPartly done/);
  // It is all in the release thread.
  expect(thread(h, release).map((m) => m.ts)).toContain(preview.ts);
  expect(h.ephemeralTexts(ALICE).filter((t) => /error|went wrong/i.test(t))).toEqual([]);
});
