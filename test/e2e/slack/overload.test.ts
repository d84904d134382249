/**
 * Issue 22, point 7: the work waiting behind acks is bounded. With one piece
 * of work running (the hosting API holding its read) and the queue full, a
 * further command is answered "busy" in its ack and a further click by an
 * ephemeral note, at once, and neither is queued; once the backlog drains,
 * requests are taken again. Issue 39: a type-ahead request (answered in its
 * ack, its read made before the ack) is shed at the same bound: no options
 * at once, nothing read; answered again once the backlog drains.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS, suggestActionId } from '../../../src/slack/ids.js';
import { blockSuggestionPayload } from '../../../src/workspace/payloads.js';
import { interactionBody, postSigned } from '../../../src/workspace/signing.js';
import { type BotHarness, clickBody, SIGNING_SECRET, slashBody, startBotHarness } from './bot-harness.js';
import { openedViewId } from './harness-extras.js';

const BUSY = /busy, try again in a few seconds/;
const simClock = new ManualClock(Date.now());
let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness({ simClock, workConcurrency: 1, queueLimit: 1 });
});
afterAll(async () => {
  // A failed expectation must not leave work held by the API: stopping waits for it.
  h.sim.clearFaults();
  await simClock.advance(60_000);
  await h.stop();
});

/** Request work queued or running (follow-ups aside), once every request acked so far is routed. */
const work = async () => {
  await h.running.bot.routed();
  return h.running.bot.inFlight().filter((name) => name.endsWith(' work'));
};
const slash = (text: string) => postSigned(h.eventsUrl, SIGNING_SECRET, slashBody(h.slack, text));

it('answers "busy" at once past the queue bound, and takes requests again once it drains', async () => {
  await h.slash('promote game-server:1.2.0 from dev to staging');
  const preview = h.lastMessage();
  h.sim.setFaults([{ method: 'GET', path: '/api/**', latencyMs: 60_000 }]);

  const running = await slash('vessels dev');
  expect(running.text).toBe('');
  await simClock.whenSleeping();
  const queued = await slash('vessels dev');
  expect(queued.text).toBe('');

  const shed = await slash('vessels dev');
  expect(shed.status).toBe(200);
  expect(JSON.stringify(shed.body)).toMatch(BUSY);
  expect(await work()).toEqual(['command work', 'command work']);

  const note = h.slack.waitFor(
    (call) => call.method === 'response_url' && BUSY.test(JSON.stringify(call.body)),
  );
  const click = await postSigned(
    h.eventsUrl,
    SIGNING_SECRET,
    clickBody(h.slack, preview, CHANGE_ACTIONS.cancel),
  );
  expect(click.status).toBe(200);
  await note;
  expect(await work()).toEqual(['command work', 'command work']);

  h.sim.clearFaults();
  await simClock.advance(60_000);
  await h.settle();
  const after = await slash('vessels dev');
  expect(JSON.stringify(after.body)).not.toMatch(BUSY);
  await h.settle();
});

it('sheds a type-ahead request past the same bound: no options at once, nothing read', async () => {
  await h.slash('promote');
  const view = h.slack.view(openedViewId(h));
  if (!view) throw new Error('the promote form did not open');
  const suggest = () =>
    postSigned(
      h.eventsUrl,
      SIGNING_SECRET,
      interactionBody(
        blockSuggestionPayload({ view, actionId: suggestActionId('images', 'dev'), query: '1.' }),
      ),
    );
  const shedCount = async () =>
    (await h.running.metrics.registry.getSingleMetricAsString('harbor_requests_shed_total'))
      .split('\n')
      .find((line) => line.startsWith('harbor_requests_shed_total{kind="options"}'));
  h.sim.setFaults([{ method: 'GET', path: '/api/**', latencyMs: 60_000 }]);
  await slash('vessels dev');
  await simClock.whenSleeping();
  await slash('vessels dev');
  expect(await work()).toEqual(['command work', 'command work']);
  const reads = h.sim.countRequests('GET', '/api/');

  const shed = await suggest();
  expect(shed.status).toBe(200);
  // Slack shows an empty list (no place for a sentence in a type-ahead); the next keystroke asks again.
  expect(shed.body).toEqual({ options: [] });
  expect(await shedCount()).toBe('harbor_requests_shed_total{kind="options"} 1');
  expect(h.sim.countRequests('GET', '/api/')).toBe(reads);

  h.sim.clearFaults();
  await simClock.advance(60_000);
  await h.settle();
  const answered = await suggest();
  expect((answered.body as { options: { value: string }[] }).options.map((o) => o.value)).toContain(
    'game-server:1.2.0',
  );
});
