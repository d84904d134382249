/**
 * Issue 30, point 3: type-ahead within the API's and Slack's limits. 300
 * type-ahead requests in flight against an API that takes 2 s to list made
 * 300 list reads at once (one full list per keystroke). Now reads of the
 * same list are one, a list read lately answers from a cache of seconds,
 * and whatever the API does, Slack gets an answer within its 3 s. Over the
 * real Bolt app, signed requests from the Slack stand-in, the simulator with
 * a latency fault on its own clock, and the bot on another.
 */
import { afterEach, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { suggestActionId } from '../../../src/slack/ids.js';
import { SUGGEST_ANSWER_MS } from '../../../src/slack/listeners/options.js';
import { blockSuggestionPayload, interactionBody } from '../../../src/workspace/payloads.js';
import { postSigned } from '../../../src/workspace/signing.js';
import type { StoredView } from '../../../src/workspace/stand-in.js';
import { type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { openedViewId } from './harness-extras.js';

let h: BotHarness;
const simClock = new ManualClock(Date.now());
const botClock = new ManualClock(Date.now());
afterEach(async () => {
  h.sim.clearFaults();
  await simClock.advance(60_000);
  await h.stop();
});

const VESSELS_PATH = '/api/formation/v1/environments/dev/vessels';
const vesselReads = () => h.sim.requests.filter((r) => r.method === 'GET' && r.path === VESSELS_PATH).length;

/** Opens the tail form for dev (its own reads done before any fault is set). */
async function openForm(): Promise<StoredView> {
  await h.slash('logs dev');
  const view = h.slack.view(openedViewId(h));
  if (!view) throw new Error('no form');
  return view;
}

/** `n` type-ahead requests for the vessels of dev in `view`, typed as `l` and `lobby` in turn. */
function typeAhead(view: StoredView, n: number) {
  return Array.from({ length: n }, (_, i) =>
    postSigned(
      h.eventsUrl,
      SIGNING_SECRET,
      interactionBody(
        blockSuggestionPayload({
          view,
          actionId: suggestActionId('vessels', 'dev'),
          query: i % 2 ? 'lobby' : 'l',
        }),
      ),
    ),
  );
}

const optionsOf = (res: { body: unknown }) =>
  (res.body as { options: { value: string }[] }).options.map((o) => o.value);

it('300 requests in flight against a 2 s API make one list read, and a cache of seconds answers the next', async () => {
  h = await startBotHarness({ simClock, clock: botClock });
  const view = await openForm();
  h.sim.setFaults([{ method: 'GET', path: VESSELS_PATH, latencyMs: 2_000 }]);
  const before = vesselReads();
  const pending = typeAhead(view, 300);
  await simClock.whenSleeping();
  await simClock.advance(2_000);
  const answered = await Promise.all(pending);
  expect(vesselReads() - before).toBe(1);
  expect(answered.every((r) => r.status === 200)).toBe(true);
  expect(optionsOf(answered[1] ?? { body: { options: [] } })).toEqual(['lobby-2', 'lobby-1']);

  // Typed on within seconds: answered from the cache, no read at all.
  const again = await Promise.all(typeAhead(view, 300));
  expect(again.every((r) => optionsOf(r).length > 0)).toBe(true);
  expect(vesselReads() - before).toBe(1);
});

it('answers within Slack’s 3 s when the API is slower, with no options, and the read fills the cache', async () => {
  h = await startBotHarness({ simClock, clock: botClock });
  const view = await openForm();
  h.sim.setFaults([{ method: 'GET', path: VESSELS_PATH, latencyMs: 10_000 }]);
  const [slow] = typeAhead(view, 1);
  await simClock.whenSleeping();
  await botClock.advance(SUGGEST_ANSWER_MS);
  const res = await slow;
  expect(res?.status).toBe(200);
  expect(optionsOf(res ?? { body: { options: [] } })).toEqual([]);
  h.sim.clearFaults();
  await simClock.advance(10_000);
  await h.settle();
  const [next] = typeAhead(view, 1);
  expect(optionsOf((await next) ?? { body: { options: [] } })).toContain('lobby-1');
});
