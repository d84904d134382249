/**
 * Twenty live tails at a high line rate against a Slack stand-in that
 * enforces Slack's budgets (chat.update 50 a minute per workspace,
 * chat.postMessage 1 a second per channel) on the tails' ManualClock: the
 * shared budget keeps every tail under them, refreshes each tail at least
 * every 30 s of that clock, and a forced 429 pauses everyone for its
 * Retry-After without losing a tail or its lines.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import type { RecordedCall } from '../../../src/workspace/stand-in.js';
import { startTailBot, type TailBot, turn } from '../../slack/tails/e2e-bot.js';

const TAILS = 20;
const STEP_MS = 250;

let h: TailBot;
beforeEach(async () => {
  h = await startTailBot({ extraVessels: TAILS });
  h.slack.enforceLimits({ chatUpdatePerMinute: 50, postMessagePerChannelPerSecond: 1 });
});
afterEach(async () => {
  await h.stop();
});

const vessels = Array.from({ length: TAILS }, (_, i) => `load-${i}`);

/** Starts one follow per vessel and waits until every tail runs and has its stream open. */
async function startAll(): Promise<void> {
  for (const vessel of vessels) {
    const ack = await h.slash(`logs dev ${vessel} --follow`);
    expect(ack.status).toBe(200);
  }
  await h.settle();
  await h.pumpUntil(() => h.sim.openLogStreams() === TAILS, 'every log stream');
}

/** Runs `ms` of the tail clock with every vessel writing `perStep` lines each step. */
async function firehose(ms: number, perStep: number, label: string): Promise<void> {
  for (let t = 0; t < ms; t += STEP_MS) {
    for (const vessel of vessels) {
      h.sim.emitLogLines(
        'dev',
        vessel,
        Array.from({ length: perStep }, (_, i) => `${label} ${vessel} t=${t} #${i} ${'x'.repeat(60)} <&>`),
      );
    }
    for (let i = 0; i < 10; i++) await turn();
    await h.quiesce();
    await h.clock.advance(STEP_MS);
  }
  await h.quiesce();
}

/** Clock times of each tail's refreshes (edits and posts of its live message), by thread. */
async function refreshTimes(): Promise<Map<string, number[]>> {
  const tails = await h.tails();
  const byThread = new Map<string, number[]>(tails.map((t) => [t.threadTs ?? '', []]));
  const threadOf = new Map<string, string>(tails.map((t) => [t.messageTs ?? '', t.threadTs ?? '']));
  const ok = (c: RecordedCall) => c.status === 200 && String(c.body.text ?? '').includes(': live ·');
  for (const call of h.slack.calls) {
    if (!ok(call)) continue;
    if (call.method === 'chat.postMessage') {
      const thread = String(call.body.thread_ts ?? '');
      const ts = String((call.response as { ts?: string }).ts ?? '');
      threadOf.set(ts, thread);
      byThread.get(thread)?.push(call.at);
    } else if (call.method === 'chat.update') {
      const thread = threadOf.get(String(call.body.ts ?? ''));
      if (thread !== undefined) byThread.get(thread)?.push(call.at);
    }
  }
  return byThread;
}

/** The longest wait between refreshes of any tail, from `from` to `to` (the ends count as refreshes due). */
function longestGap(times: Map<string, number[]>, from: number, to: number): number {
  let worst = 0;
  for (const list of times.values()) {
    const inside = list.filter((t) => t >= from && t <= to);
    const points = [from, ...inside, to];
    for (let i = 1; i < points.length; i++)
      worst = Math.max(worst, (points[i] as number) - (points[i - 1] as number));
  }
  return worst;
}

it('twenty tails at ~1600 lines a second stay under Slack limits and each refreshes at least every 30 s', async () => {
  await startAll();
  const from = h.clock.now();
  await firehose(3 * 60_000, 20, 'load');
  const to = h.clock.now();

  expect(h.slack.rateLimited).toEqual([]);
  const updates = h.slack.callsTo('chat.update').map((c) => c.at);
  for (const at of updates) {
    expect(updates.filter((u) => u > at - 60_000 && u <= at).length).toBeLessThanOrEqual(50);
  }
  const times = await refreshTimes();
  expect(times.size).toBe(TAILS);
  expect(longestGap(times, from, to)).toBeLessThanOrEqual(30_000);
  // Every tail is still live, and shows lines from the last half minute.
  const tails = await h.tails();
  expect(tails.every((t) => t.status === 'active')).toBe(true);
  const lastT = Math.floor((3 * 60_000 - 30_000) / 1000);
  for (const t of tails) {
    const live = h.slack.message('C0OPS', (t.state as { messageTs: string }).messageTs);
    expect(live?.text).toMatch(/live · \d+ lines seen · \d+ not shown/);
    const shownTimes = [...JSON.stringify(live?.blocks).matchAll(/t=(\d+)/g)].map((m) => Number(m[1]));
    expect(Math.max(...shownTimes) / 1000).toBeGreaterThanOrEqual(lastT);
  }
}, 180_000);

it('a forced 429 pauses every tail for its Retry-After, then all carry on, none lost', async () => {
  await startAll();
  await firehose(30_000, 5, 'warm');
  h.slack.forceRateLimit('chat.update', { count: 1, retryAfterSeconds: 20 });
  const before = h.slack.calls.length;
  await firehose(90_000, 5, 'after');
  const limited = h.slack.rateLimited;
  expect(limited).toHaveLength(1);
  const at = limited[0]?.at as number;
  const updates = h.slack.calls.slice(before).filter((c) => c.method === 'chat.update' && c.status === 200);
  // Nobody edited during the pause, and the first edit after it came as soon as it ended.
  expect(updates.filter((c) => c.at < at + 20_000)).toEqual([]);
  expect(updates[0]?.at).toBeLessThanOrEqual(at + 20_000 + STEP_MS);
  const tails = await h.tails();
  expect(tails.every((t) => t.status === 'active')).toBe(true);
  const times = await refreshTimes();
  for (const list of times.values()) expect(list.some((t) => t > at + 20_000)).toBe(true);
}, 180_000);
