/**
 * A change message is rewritten one update at a time through the Slack
 * gateway, and rewrites asked for meanwhile fold into one showing the newest
 * state (so a burst of late clicks costs the message one more update, not
 * one each), never an older state.
 */
import { afterEach, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import type { ChangeMessageDeps } from '../../../src/slack/change-messages/deps.js';
import { rewriteChangeMessage } from '../../../src/slack/change-messages/draw.js';
import { SlackGateway } from '../../../src/slack/gateway/gateway.js';
import { openStore } from '../../../src/store/index.js';
import type { Store } from '../../../src/store/types.js';
import { recordingFetch } from '../gateway/recording-fetch.js';
import { makeChange } from '../render/fixtures.js';

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
});

it('folds rewrites asked for while one runs into one, drawing the newest state', async () => {
  const clock = new ManualClock();
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
  });
  const marked: string[] = [];
  const ctx: Pick<ChangeMessageDeps, 'clock' | 'logger' | 'redraw' | 'store'> = {
    clock,
    logger: silentLogger,
    store: {
      // Slack's table places the message; what it is known to show is marked there.
      changeMessages: async (ids: readonly string[]) =>
        new Map(ids.map((id) => [id, { changeId: id, channel: 'C1', messageTs: '1.0' }])),
      markMessageDrawn: async (_id: string, status: string) => void marked.push(status),
    } as never,
    redraw: ({ purpose, channel, key, args }) =>
      gateway.call(purpose, 'chat.update', args, { team: 'T1', key, channel }),
  };
  const origin = { workspace: 'T1', channel: 'C1' };
  const applying = makeChange({ status: 'applying', version: 2, origin });
  const done = makeChange({
    status: 'succeeded',
    version: 3,
    origin,
    result: { summary: 'Promoted', lines: [], facts: {} },
  });

  const first = slack.hold('chat.update');
  const drawing = rewriteChangeMessage(ctx, applying);
  while (slack.calls.length === 0) await new Promise((r) => setImmediate(r));
  // Meanwhile: the final state, then late clicks asking again, one of them with an older state.
  const later = [
    rewriteChangeMessage(ctx, done),
    rewriteChangeMessage(ctx, done),
    rewriteChangeMessage(ctx, applying),
    rewriteChangeMessage(ctx, done),
  ];
  first.release();
  await drawing;
  await Promise.all(later);
  expect(slack.calls.map((c) => String(c.args.text).split(':')[0])).toEqual(['Applying', 'Done']);
  expect(marked).toEqual(['succeeded']);
});
