/**
 * Issue 30, point 5: one form submission, one preview. The same signed view
 * submission delivered five times at once (as Slack's retries, or five
 * replicas behind one URL, would deliver it) and replayed byte for byte after
 * a restart (another process on the same store) creates one pending change
 * and one preview: the view's id and hash are claimed in the store once.
 */
import { afterEach, expect, it } from '@jest/globals';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { interactionBody, viewSubmissionPayload } from '../../../src/workspace/payloads.js';
import { postSigned } from '../../../src/workspace/signing.js';
import { ALICE, type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { answers, openedViewId } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const previews = () =>
  h.slack.channelMessages(TEST_CHANNEL.id).filter((m) => !m.threadTs && /vessel|Vessel/.test(m.text ?? ''));

it('five deliveries of one submission and a replay after a restart make one preview', async () => {
  h = await startBotHarness();
  await h.slash('vessel create dev', ALICE);
  const viewId = openedViewId(h);
  const view = h.slack.view(viewId);
  if (!view) throw new Error('no form');
  const body = interactionBody(
    viewSubmissionPayload({
      view,
      values: answers(view, {
        name: 'once-1',
        region: 'eu-central',
        'container.image': 'game-server:1.2.0',
      }) as never,
      user: ALICE,
    }),
  );
  const sent = await Promise.all(
    Array.from({ length: 5 }, () => postSigned(h.eventsUrl, SIGNING_SECRET, body)),
  );
  expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  await h.settle();
  await h.restart();
  expect((await postSigned(h.eventsUrl, SIGNING_SECRET, body)).status).toBe(200);
  await h.settle();
  expect(previews()).toHaveLength(1);
  expect(await h.running.core.store.listChanges({ status: ['pending', 'awaiting_approval'] })).toHaveLength(
    1,
  );
});

it('a submission corrected after field errors still previews (the refused one claimed nothing)', async () => {
  h = await startBotHarness();
  await h.slash('vessel create dev', ALICE);
  const viewId = openedViewId(h);
  const view = h.slack.view(viewId);
  if (!view) throw new Error('no form');
  const bad = await h.submit(viewId, answers(view, { name: 'Not A Name!', region: 'eu-central' }));
  expect(bad.body).toMatchObject({ response_action: 'errors' });
  const good = await h.submit(
    viewId,
    answers(view, { name: 'once-2', region: 'eu-central', 'container.image': 'game-server:1.2.0' }),
  );
  expect(good.body).toEqual({ response_action: 'clear' });
  await h.settle();
  expect(previews()).toHaveLength(1);
});
