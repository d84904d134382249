/**
 * A change message is rewritten one update at a time, and rewrites asked for
 * meanwhile fold into one showing the newest state (so a burst of late clicks
 * costs the message one more update, not one each), never an older state.
 */
import { expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import type { ChangeMessageDeps } from '../../../src/slack/change-messages/deps.js';
import { rewriteChangeMessage } from '../../../src/slack/change-messages/draw.js';
import { makeChange } from '../render/fixtures.js';

function gatedSlack() {
  const drawn: string[] = [];
  const gates: (() => void)[] = [];
  let started: () => void = () => {};
  const slack = {
    chat: {
      update: (args: { text: string }) =>
        new Promise<void>((resolve) => {
          drawn.push(args.text);
          gates.push(resolve);
          started();
        }),
    },
  };
  const nextStart = () =>
    new Promise<void>((resolve) => {
      started = resolve;
    });
  return { slack, drawn, gates, nextStart };
}

it('folds rewrites asked for while one runs into one, drawing the newest state', async () => {
  const g = gatedSlack();
  const marked: string[] = [];
  const ctx = {
    clock: new ManualClock(),
    logger: silentLogger,
    store: {
      // Slack's table places the message; what it is known to show is marked there.
      changeMessages: async (ids: string[]) =>
        new Map(ids.map((id) => [id, { changeId: id, channel: 'C1', messageTs: '1.0' }])),
      markMessageDrawn: async (_id: string, status: string) => void marked.push(status),
    },
    slack: g.slack,
  } as unknown as Pick<ChangeMessageDeps, 'clock' | 'logger' | 'slack' | 'store'>;
  const origin = { workspace: 'T1', channel: 'C1' };
  const applying = makeChange({ status: 'applying', version: 2, origin });
  const done = makeChange({
    status: 'succeeded',
    version: 3,
    origin,
    result: { summary: 'Promoted', lines: [], facts: {} },
  });

  const first = g.nextStart();
  const drawing = rewriteChangeMessage(ctx, applying);
  await first;
  // Meanwhile: the final state, then late clicks asking again, one of them with an older state.
  const later = [
    rewriteChangeMessage(ctx, done),
    rewriteChangeMessage(ctx, done),
    rewriteChangeMessage(ctx, applying),
    rewriteChangeMessage(ctx, done),
  ];
  const second = g.nextStart();
  g.gates.shift()?.();
  await drawing;
  await second;
  g.gates.shift()?.();
  await Promise.all(later);
  expect(g.drawn.map((t) => t.split(':')[0])).toEqual(['Applying', 'Done']);
  expect(marked).toEqual(['succeeded']);
});
