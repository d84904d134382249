/**
 * Issue 18.8, the tail side, end to end (the real bot, the simulator's log
 * stream, the Slack stand-in, the tails' ManualClock): a tail in a release
 * thread keeps to one message and scrolls it in place when it is full, so
 * no "part 2" buries the release's approval prompts; a tail in its own
 * thread still freezes a full message and goes on in a new one.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { TAIL_ACTIONS } from '../../../src/slack/ids.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { startTailBot, type TailBot } from '../../slack/tails/e2e-bot.js';
import { shown } from './harness-extras.js';

let h: TailBot;
beforeEach(async () => {
  h = await startTailBot();
});
afterEach(async () => {
  await h.stop();
});

const long = (i: number) => `line ${String(i).padStart(4, '0')} ${'x'.repeat(90)}`;

/** Fills the tail's message (about 29 such lines), then sends 10 more than it holds; returns the tail's messages. */
async function overflow(threadTs: string): Promise<StoredMessage[]> {
  await h.pumpUntil(() => h.sim.openLogStreams() === 1, 'the log stream');
  const [record] = await h.tails();
  const first = record?.messageTs ?? '';
  h.sim.emitLogLines(
    'dev',
    'lobby-1',
    Array.from({ length: 29 }, (_, i) => long(i)),
  );
  await h.pumpUntil(() => shown(h.message(first)).includes('line 0028'), 'a full message');
  h.sim.emitLogLines(
    'dev',
    'lobby-1',
    Array.from({ length: 10 }, (_, i) => long(100 + i)),
  );
  const tailMessages = () => h.thread(threadTs).filter((m) => shown(m).includes('line 0'));
  await h.pumpUntil(() => tailMessages().some((m) => shown(m).includes('line 0109')), 'the new lines');
  return tailMessages();
}

it('in a release thread the tail scrolls its one message', async () => {
  await h.slash('release start Launch');
  await h.settle();
  const [release] = await h.running.core.store.listReleases({ status: 'open' });
  if (!release?.messageTs) throw new Error('no release message');
  // The "Tail logs" button a release's step offers (it sits in the release thread and names the release).
  const carrier: StoredMessage = {
    ...h.message(release.messageTs),
    blocks: [
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: TAIL_ACTIONS.start,
            text: { type: 'plain_text', text: 'Tail logs' },
            value: JSON.stringify({ environment: 'dev', vessel: 'lobby-1', releaseId: release.id }),
          },
        ],
      },
    ],
  };
  await h.click(carrier, TAIL_ACTIONS.start);
  await h.settle();
  const messages = await overflow(release.messageTs);
  expect(messages).toHaveLength(1);
  const [tail] = messages;
  expect(shown(tail)).toContain('line 0109');
  expect(shown(tail)).not.toContain('line 0000');
  expect(shown(tail)).not.toContain('continued below');
});

it('in its own thread the full message is frozen and the tail goes on in a new one', async () => {
  await h.slash('logs dev lobby-1 --follow');
  await h.settle();
  const [record] = await h.tails();
  const messages = await overflow(record?.threadTs ?? '');
  expect(messages).toHaveLength(2);
  const first = messages[0]?.ts ?? '';
  // The full message is frozen (as part 1, without its Stop) right after the new one is posted.
  await h.pumpUntil(() => shown(h.message(first)).includes('continued below'), 'the frozen part');
});
