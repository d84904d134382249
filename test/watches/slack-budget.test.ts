/**
 * Alerts spend the workspace's shared Slack budget (issue 29) as tails do:
 * three replicas' alert messengers, each through its own Slack gateway on one
 * store, post 500 alerts (10 objects x 50 channels) within the posting rate
 * in every minute and one post a second per channel, and a person's message
 * asked for in the middle of the burst gets its slot at once.
 */
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/runtime/clock.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { slackAlertMessenger } from '../../src/slack/alerts/messenger.js';
import { SlackGateway } from '../../src/slack/gateway/gateway.js';
import { StoreSlots } from '../../src/slack-budget/shared-slots.js';
import type { Store } from '../../src/store/types.js';
import { Watcher } from '../../src/watches/watcher.js';
import { recordingFetch } from '../slack/gateway/recording-fetch.js';
import { endReplicaStores, everyone, FakeApi, openReplicaStores, STORE_KINDS } from './harness.js';

afterAll(endReplicaStores);

interface Call {
  method: string;
  channel: string;
  at: number;
}

function busiestMinute(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    while (j < sorted.length && (sorted[j] as number) < (sorted[i] as number) + 60_000) j++;
    best = Math.max(best, j - i);
  }
  return best;
}

describe.each(STORE_KINDS)('alerts on the shared Slack budget (%s)', (kind) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('keep to the posting rate with three replicas and fifty channels, behind a person', async () => {
    const opened = await openReplicaStores(kind, 3);
    close = opened.close;
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 14, 0, 0));
    const slack = recordingFetch(clock);
    const gateways = opened.stores.map(
      (store, i) =>
        new SlackGateway({
          token: 'xoxb-test',
          clientOptions: { fetch: slack.fetch, retryConfig: { retries: 0 } },
          store: () => store,
          replicaId: `r${i}`,
          clock,
          logger: silentLogger,
        }),
    );
    const slots = opened.stores.map(
      (store, i) =>
        new StoreSlots({ store, workspace: 'T1', replicaId: `r${i}`, clock, logger: silentLogger }),
    );
    const api = new FakeApi();
    const watchers = opened.stores.map(
      (store, i) =>
        new Watcher({
          store,
          source: api,
          messenger: slackAlertMessenger({ gateway: gateways[i] as SlackGateway }),
          mayRead: everyone,
          intervalMs: 30_000,
          settleMs: 60_000,
          replica: `r${i}`,
          newId: (() => {
            let n = 0;
            return () => `r${i}-${++n}`;
          })(),
          logger: silentLogger,
          clock,
        }),
    );
    const store = opened.stores[0] as Store;
    for (let c = 0; c < 50; c++) {
      await store.addWatch({
        workspace: 'T1',
        channel: `C${c}`,
        env: 'prod',
        createdBy: 'U1',
        createdAt: clock.now(),
      });
    }
    for (let v = 0; v < 10; v++) api.setVessel(`v-${v}`, 'Error', 'boom');

    // Each round every replica ticks once; while the ticks wait for slots the clock moves in 100 ms
    // steps (only when something sleeps on it), and a round lasts at least 10 s of the clock.
    let personAt: number | undefined;
    let personTaken: boolean | undefined;
    const t0 = clock.now();
    for (let round = 0; round < 60; round++) {
      const roundStart = clock.now();
      let done = false;
      const ticks = Promise.all(watchers.map((w) => w.tick())).then(() => {
        done = true;
      });
      while (!done) {
        await Promise.race([ticks, clock.whenSleeping(1)]);
        if (done) break;
        if (personAt === undefined && clock.now() - t0 >= 125_000) {
          personAt = clock.now();
          personTaken = (await slots[1]?.take('chat.postMessage', 'CPEOPLE', 'person'))?.taken;
        }
        await clock.advance(100);
      }
      if (clock.now() < roundStart + 10_000) await clock.advance(roundStart + 10_000 - clock.now());
      if (slack.calls.length >= 500 && personAt !== undefined) break;
    }
    const calls: Call[] = slack.calls.map((c) => ({
      method: c.method,
      channel: String(c.args.channel),
      at: c.at,
    }));
    const posts = calls.filter((c) => c.method === 'chat.postMessage');
    expect(posts).toHaveLength(500);
    expect(personTaken).toBe(true);
    // It was asked for while alerts still waited for slots.
    expect(posts.filter((p) => p.at < (personAt as number)).length).toBeGreaterThan(100);
    expect(posts.filter((p) => p.at > (personAt as number)).length).toBeGreaterThan(100);
    // 100 posts a minute with a burst of 3 for the alerts (people keep the deeper burst for themselves).
    expect(busiestMinute(posts.map((p) => p.at))).toBeLessThanOrEqual(103);
    for (let c = 0; c < 50; c++) {
      const times = posts.filter((p) => p.channel === `C${c}`).map((p) => p.at);
      for (let i = 1; i < times.length; i++)
        expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(1000);
    }
    // Each object once per channel: three replicas, no duplicates.
    expect(new Set(posts.map((p) => p.channel)).size).toBe(50);
  }, 120_000);
});
