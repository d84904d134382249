/**
 * The Slack gateway's ordering, folding and 429 hold (issue 40), on a
 * ManualClock and a recording transport: a person's call never waits for
 * paced ones; when slots are short outcomes go before other messages'
 * progress; a keyed redraw replaced before its slot comes is not sent (its
 * arguments are made when the slot comes); a 429 holds the method and the
 * call goes again after Retry-After, losing nothing.
 */
import { afterEach, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { SlackGateway } from '../../../src/slack/gateway/gateway.js';
import { openStore } from '../../../src/store/index.js';
import type { Store } from '../../../src/store/types.js';
import { type RecordingFetch, recordingFetch } from './recording-fetch.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** A gateway over an in-memory store, allowing 6 edits a minute with no burst (10 s apart). */
async function gatewayOf(clock: ManualClock): Promise<{ gateway: SlackGateway; slack: RecordingFetch }> {
  const slack = recordingFetch(clock);
  const opened = await openStore({ dataDir: ':memory:' });
  store = opened;
  const gateway = new SlackGateway({
    token: 'xoxb-test',
    clientOptions: { fetch: slack.fetch, retryConfig: { retries: 0 } },
    store: () => opened,
    replicaId: 'r1',
    clock,
    logger: silentLogger,
    limits: { updatesPerMinute: 6, updateBurst: 1, postsPerMinute: 6, postBurst: 1 },
  });
  return { gateway, slack };
}

/** Waits (on the gateway's own moves, not on turns of the loop) until what may go out has been sent. */
async function settle(gateway: SlackGateway): Promise<void> {
  await gateway.sent();
  await gateway.idle();
}

const edit = (ts: string, text: string) => ({ channel: 'C1', ts, text });

it('a person’s views.open goes out at once while paced edits wait for their slots', async () => {
  const clock = new ManualClock();
  const { gateway, slack } = await gatewayOf(clock);
  const edits = Array.from({ length: 150 }, (_, i) =>
    gateway.call('progress', 'chat.update', edit(`${i}.0`, `edit ${i}`), { team: 'T1' }),
  );
  await settle(gateway);
  expect(gateway.waiting()).toBeGreaterThan(140);
  await gateway.call('person', 'views.open', { trigger_id: 't', view: { type: 'modal' } }, { team: 'T1' });
  expect(slack.calls.map((c) => c.method).filter((m) => m === 'views.open')).toHaveLength(1);
  // The clock did not move: the modal did not wait for any edit's slot.
  expect(clock.now()).toBe(new ManualClock().now());
  for (let s = 0; s < 30 * 60 && gateway.waiting() > 0; s++)
    await clock.advance(1_000, () => settle(gateway));
  await Promise.all(edits);
  expect(slack.calls.filter((c) => c.method === 'chat.update')).toHaveLength(150);
});

it('outcomes go before other messages’ progress, and a person before both', async () => {
  const clock = new ManualClock();
  const { gateway, slack } = await gatewayOf(clock);
  // The first edits take the slots there are now (the bot's own messages' burst); the rest wait.
  const sent = ['first', 'second', 'third'].map((text, i) =>
    gateway.call('progress', 'chat.update', edit(`0.${i}`, text), { team: 'T1' }),
  );
  await settle(gateway);
  sent.push(gateway.call('progress', 'chat.update', edit('1.0', 'progress 1'), { team: 'T1' }));
  sent.push(gateway.call('progress', 'chat.update', edit('2.0', 'progress 2'), { team: 'T1' }));
  sent.push(gateway.call('outcome', 'chat.update', edit('3.0', 'outcome 3'), { team: 'T1' }));
  sent.push(gateway.call('alert', 'chat.update', edit('4.0', 'alert 4'), { team: 'T1' }));
  sent.push(gateway.call('person', 'chat.update', edit('5.0', 'person 5'), { team: 'T1' }));
  await settle(gateway);
  for (let s = 0; s < 120 && gateway.waiting() > 0; s++) await clock.advance(1_000, () => settle(gateway));
  await Promise.all(sent);
  expect(slack.calls.map((c) => c.args.text)).toEqual([
    'first',
    'second',
    'third',
    'person 5',
    'outcome 3',
    'progress 1',
    'progress 2',
    'alert 4',
  ]);
  // Past the burst, 10 s apart: within the 6 a minute asked for.
  const times = slack.calls.slice(2).map((c) => c.at);
  for (let i = 1; i < times.length; i++)
    expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(10_000);
});

it('a keyed redraw replaced before its slot comes is not sent; the newest is drawn, in the older place', async () => {
  const clock = new ManualClock();
  const { gateway, slack } = await gatewayOf(clock);
  const sent = ['first', 'second', 'third'].map((text, i) =>
    gateway.call('progress', 'chat.update', edit(`0.${i}`, text), { team: 'T1' }),
  );
  await settle(gateway);
  let state = 'Applying';
  let made = 0;
  const redraw = (purpose: 'outcome' | 'progress') =>
    gateway.call(
      purpose,
      'chat.update',
      async () => {
        made += 1;
        return edit('9.0', state);
      },
      { team: 'T1', key: 'C1/9.0', channel: 'C1' },
    );
  const applying = redraw('progress');
  sent.push(gateway.call('outcome', 'chat.update', edit('1.0', 'other outcome'), { team: 'T1' }));
  state = 'Done';
  const done = redraw('outcome');
  await settle(gateway);
  for (let s = 0; s < 60 && gateway.waiting() > 0; s++) await clock.advance(1_000, () => settle(gateway));
  await Promise.all([...sent, applying, done]);
  // One rewrite of message 9.0, drawn when its slot came, ahead of the later outcome (it folded into
  // the first place in the queue and took the outcome's rank).
  expect(slack.calls.map((c) => c.args.text)).toEqual(['first', 'second', 'third', 'Done', 'other outcome']);
  expect(made).toBe(1);
});

it('a 429 holds the method for Retry-After, and the call goes again after it', async () => {
  const clock = new ManualClock();
  const { gateway, slack } = await gatewayOf(clock);
  slack.rateLimitNext('chat.update', 30);
  const start = clock.now();
  const first = gateway.call('outcome', 'chat.update', edit('0.0', 'held'), { team: 'T1' });
  await settle(gateway);
  const second = gateway.call('person', 'chat.update', edit('1.0', 'behind the hold'), { team: 'T1' });
  for (let s = 0; s < 120 && gateway.waiting() > 0; s++) await clock.advance(1_000, () => settle(gateway));
  await Promise.all([first, second]);
  const updates = slack.calls.filter((c) => c.method === 'chat.update');
  expect(updates.map((c) => c.args.text)).toEqual(['held', 'behind the hold', 'held']);
  // Nothing of the method went out inside the 30 s Retry-After; the store's gate holds it for every replica.
  expect((updates[1]?.at as number) - start).toBeGreaterThanOrEqual(30_000);
  expect((updates[2]?.at as number) - start).toBeGreaterThanOrEqual(30_000);
});

it('a tail’s 429 is the workspace’s one hold: queued edits wait it out too', async () => {
  const clock = new ManualClock();
  const { gateway, slack } = await gatewayOf(clock);
  const start = clock.now();
  // A tail heard 429 (30 s) on an edit: the tails' fair queue reports it to the gateway's hold.
  gateway.tailBudget('T1').rateLimited('edit', 30_000);
  const held = gateway.call('outcome', 'chat.update', edit('0.0', 'after the hold'), { team: 'T1' });
  await settle(gateway);
  expect(slack.calls).toEqual([]);
  for (let s = 0; s < 120 && gateway.waiting() > 0; s++) await clock.advance(1_000, () => settle(gateway));
  await held;
  const updates = slack.calls.filter((c) => c.method === 'chat.update');
  expect(updates.map((c) => c.args.text)).toEqual(['after the hold']);
  expect((updates[0]?.at as number) - start).toBeGreaterThanOrEqual(30_000);
});
