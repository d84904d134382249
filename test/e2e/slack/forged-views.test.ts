/**
 * Issue 22, point 4: a submission counts only for a view the bot opened (its
 * id and hash are stored when it opens one). A signed submission of a view
 * the bot never opened, even one copying a real modal's blocks and metadata,
 * creates no change and the submitter is told why. The stored hash is the
 * view's latest (refreshed on each views.update the bot makes), and a
 * submission must carry it; the Reject reason modal is checked the same way.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { interactionBody, viewSubmissionPayload } from '../../../src/workspace/payloads.js';
import { postSigned } from '../../../src/workspace/signing.js';
import { ALICE, type BotHarness, CAROL, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { answers, openedViewId } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

it('a submission of a view the bot never opened creates no change', async () => {
  await h.slash('promote');
  const real = h.slack.view(openedViewId(h));
  if (!real) throw new Error('no modal');
  const values = answers(real, { image: 'game-server:1.2.0', targetBranch: 'staging' });
  const forged = viewSubmissionPayload({
    view: { ...real, id: 'V0FORGED' },
    values: values as never,
    user: ALICE,
  });
  const res = await postSigned(h.eventsUrl, SIGNING_SECRET, interactionBody(forged));
  expect(res.status).toBe(200);
  await h.settle();
  expect(await h.running.core.store.listChanges({})).toEqual([]);
  expect(h.ephemeralTexts(ALICE).at(-1)).toMatch(/not a form Harbormaster opened/);

  // The real modal still works.
  await h.submit(real.id, values);
  expect(await h.running.core.store.listChanges({})).toHaveLength(1);
});

it('a submission of a view the bot opened but carrying another hash creates no change', async () => {
  await h.slash('promote');
  const real = h.slack.view(openedViewId(h));
  if (!real) throw new Error('no modal');
  const values = answers(real, { image: 'game-server:1.2.0', targetBranch: 'staging' });
  const stale = viewSubmissionPayload({
    view: { ...real, hash: '1700000000.deadbeef' },
    values: values as never,
    user: ALICE,
  });
  await postSigned(h.eventsUrl, SIGNING_SECRET, interactionBody(stale));
  await h.settle();
  expect(await h.running.core.store.listChanges({})).toEqual([]);
  expect(h.ephemeralTexts(ALICE).at(-1)).toMatch(/not a form Harbormaster opened/);

  // The view as Slack holds it now (its hash changed when the bot filled it in) is accepted.
  await h.submit(real.id, values);
  expect(await h.running.core.store.listChanges({})).toHaveLength(1);
});

it('a submission of a Reject reason modal the bot never opened rejects nothing', async () => {
  await h.slash('promote game-server:1.2.0 from dev to prod');
  const prod = h.lastMessage();
  await h.click(prod, CHANGE_ACTIONS.reject, CAROL);
  const real = h.slack.view(openedViewId(h));
  if (!real) throw new Error('no reject modal');
  const reason = { reason: { reason: { type: 'plain_text_input', value: 'not now' } } };
  const forged = viewSubmissionPayload({
    view: { ...real, id: 'V0FORGED' },
    values: reason as never,
    user: CAROL,
  });
  await postSigned(h.eventsUrl, SIGNING_SECRET, interactionBody(forged));
  await h.settle();
  const [change] = await h.running.core.store.listChanges({});
  expect(change?.status).toBe('awaiting_approval');
  expect(h.ephemeralTexts(CAROL).at(-1)).toMatch(/not a form Harbormaster opened/);

  await h.submit(real.id, reason, CAROL);
  const [after] = await h.running.core.store.listChanges({});
  expect(after?.status).toBe('cancelled');
});
