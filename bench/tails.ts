/**
 * Live tails, three figures:
 * 1. Throughput: MB/s of log text one tail consumes from a fast in-process
 *    stream (LineRing, tail view and message rendering on every refresh, the
 *    budget opened wide so refreshes run as often as they can) against
 *    reading and discarding the same stream. The HTTP client's own decoding
 *    is the same either way and is left out.
 * 2. Memory: RSS before and after tails consume 1 GB of logs between them
 *    (each tail keeps a bounded ring, so RSS should not follow the volume).
 * 3. Slack calls per minute with 1, 10 and 30 busy tails on one workspace
 *    budget, over simulated minutes of a ManualClock.
 * Run: npx tsx bench/tails.ts [--mb 256] [--rss-gb 1] [--rss-tails 10] [--minutes 10]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Vessel } from '../src/api-shapes/resources.js';
import { ManualClock, systemClock } from '../src/runtime/clock.js';
import { silentLogger } from '../src/runtime/logger.js';
import type { SlackMessage } from '../src/slack/render/message.js';
import { slackTailDrawing } from '../src/slack/tails/drawing.js';
import type { TailSlack } from '../src/slack/tails/slack-calls.js';
import { type BudgetOptions, MessageBudget } from '../src/slack-budget/budget.js';
import { tailPacer } from '../src/slack-budget/tail-pacer.js';
import { initialProgress } from '../src/tails/progress.js';
import { TailRunner } from '../src/tails/runner.js';
import type { TailLimits } from '../src/tails/service-options.js';
import { stopByUser } from '../src/tails/stop-reason.js';
import type { TailLogSource } from '../src/tails/tail-stream.js';

const MB = 1024 * 1024;
const LIMITS: TailLimits = {
  maxDurationMs: 24 * 60 * 60_000,
  backoff: { initialMs: 1000, maxMs: 30_000 },
  initialTailLines: 0,
  ring: { maxLines: 2000, maxChars: 256 * 1024 },
  maxMessages: 10,
};

/** 4096 log-like lines, 40 to ~300 characters, some with mrkdwn's special characters and backticks. */
const POOL = Array.from({ length: 4096 }, (_, i) => {
  const pad = 'abcdefghij'.repeat(1 + (i % 27));
  return i % 7 === 0
    ? `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z WARN player <p${i}> & \`${pad}\``
    : `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z INFO tick ${i} ${pad}`;
});

/** A stream of POOL lines until `bytes` have gone by, then open and silent until aborted; a socket-like pause every 512 lines. */
function fastSource(bytes: number): { source: TailLogSource; consumed: Promise<number> } {
  let finish: (ms: number) => void = () => {};
  const consumed = new Promise<number>((resolve) => {
    finish = resolve;
  });
  async function* lines(signal?: AbortSignal): AsyncGenerator<string, void, undefined> {
    const started = performance.now();
    let sent = 0;
    let i = 0;
    while (sent < bytes) {
      const line = POOL[i++ % POOL.length] as string;
      sent += line.length + 1;
      yield line;
      if (i % 512 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    finish(performance.now() - started);
    await new Promise<void>((resolve) => {
      if (signal?.aborted) resolve();
      else signal?.addEventListener('abort', () => resolve(), { once: true });
    });
  }
  const source: TailLogSource = {
    streamVesselLogs: (_env, _name, opts) => lines(opts?.signal),
    getVessel: async (env, name) => ({ metadata: { name, environment: env } }) as Vessel,
  };
  return { source, consumed };
}

/** Slack that answers at once and counts, by method. */
function countingSlack(): TailSlack & { posts: number; updates: number } {
  let seq = 0;
  const slack = {
    posts: 0,
    updates: 0,
    post: async () => {
      slack.posts += 1;
      return `1700000000.${String(++seq).padStart(6, '0')}`;
    },
    update: async () => {
      slack.updates += 1;
    },
  };
  return slack;
}

function runner(
  id: string,
  source: TailLogSource,
  slack: TailSlack,
  budget: MessageBudget,
  clock = systemClock,
): TailRunner<SlackMessage> {
  return new TailRunner({
    target: {
      id,
      channel: 'C1',
      threadTs: '1700000000.000000',
      env: 'dev',
      vessel: id,
      startedAt: clock.now(),
    },
    replicaId: 'bench',
    progress: initialProgress('bench', '1700000000.000001'),
    source,
    messenger: slack,
    drawing: slackTailDrawing,
    budget: tailPacer(budget),
    clock,
    logger: silentLogger,
    limits: LIMITS,
    save: async () => {},
    finish: async () => {},
  });
}

/** Runs one tail over `bytes` of the fast stream; resolves with the time it took and the refreshes made. */
async function tailRun(bytes: number, budgetOptions: Omit<BudgetOptions, 'clock'>) {
  const tail = fastSource(bytes);
  const slack = countingSlack();
  const budget = new MessageBudget({ clock: systemClock, ...budgetOptions });
  const r = runner('throughput', tail.source, slack, budget);
  const ms = await tail.consumed;
  r.stop(stopByUser('bench'));
  await r.done;
  budget.close();
  return { ms, refreshes: slack.updates + slack.posts };
}

async function throughput(mb: number): Promise<void> {
  const bytes = mb * MB;
  const base = fastSource(bytes);
  const ac = new AbortController();
  let discarded = 0;
  const reading = (async () => {
    for await (const line of base.source.streamVesselLogs('dev', 'x', { signal: ac.signal }))
      discarded += line.length;
  })();
  const baseMs = await base.consumed;
  ac.abort();
  await reading;
  // Slack's pace (the default budget), and a budget 130 times wider (100 refreshes a second).
  const paced = await tailRun(bytes, {});
  const busy = await tailRun(bytes, { updatesPerMinute: 6000, updateBurst: 3 });

  const rate = (ms: number) => bytes / MB / (ms / 1000);
  const row = (label: string, run: { ms: number; refreshes: number }) =>
    console.log(
      `  ${label}: ${rate(run.ms).toFixed(1).padStart(7)} MB/s  ratio ${(rate(run.ms) / rate(baseMs)).toFixed(2)}  (${run.refreshes} refreshes)`,
    );
  console.log(
    `throughput over ${mb} MB of log text (${(discarded / MB).toFixed(0)} MB of line text read bare)`,
  );
  console.log(`  read and discard              : ${rate(baseMs).toFixed(1).padStart(7)} MB/s`);
  row('tail, Slack-paced refreshes   ', paced);
  row('tail, 100 refreshes a second  ', busy);
}

async function memory(gb: number, tails: number): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().rss;
  const perTail = Math.floor((gb * 1024 * MB) / tails);
  const budget = new MessageBudget({ clock: systemClock });
  const slack = countingSlack();
  const sources = Array.from({ length: tails }, () => fastSource(perTail));
  const started = performance.now();
  const runners = sources.map((s, i) => runner(`mem-${i}`, s.source, slack, budget));
  await Promise.all(sources.map((s) => s.consumed));
  const ms = performance.now() - started;
  const during = process.memoryUsage().rss;
  gc?.();
  const after = process.memoryUsage().rss;
  for (const r of runners) r.detach();
  await Promise.all(runners.map((r) => r.done));
  budget.close();
  const show = (n: number) => `${(n / MB).toFixed(0)} MB`;
  console.log(`memory: ${gb} GB of logs across ${tails} live tails in ${(ms / 1000).toFixed(1)} s`);
  console.log(`  RSS before       : ${show(before)}`);
  console.log(
    `  RSS after (live) : ${show(during)}${gc ? `  (after GC: ${show(after)})` : '  (run with --expose-gc for a post-GC figure)'}`,
  );
  console.log(`  growth           : ${show(during - before)} for ${show(gb * 1024 * MB)} consumed`);
}

/** A source that writes `perSecond` lines a second on the clock, for as long as it is followed. */
function steadySource(clock: ManualClock, perSecond: number): TailLogSource {
  async function* lines(signal?: AbortSignal): AsyncGenerator<string, void, undefined> {
    let n = 0;
    while (!signal?.aborted) {
      // No signal for the sleep: ManualClock keeps one abort listener per sleep given one.
      await clock.sleep(1000);
      if (signal?.aborted) return;
      for (let i = 0; i < perSecond; i++) yield POOL[n++ % POOL.length] as string;
    }
  }
  return {
    streamVesselLogs: (_env, _name, opts) => lines(opts?.signal),
    getVessel: async (env, name) => ({ metadata: { name, environment: env } }) as Vessel,
  };
}

async function callsPerMinute(counts: number[], minutes: number): Promise<void> {
  console.log(
    `Slack calls per minute (one workspace budget, 20 lines/s per tail, ${minutes} simulated minutes)`,
  );
  console.log('  tails  chat.update/min  chat.postMessage/min  longest refresh gap');
  for (const n of counts) {
    const clock = new ManualClock();
    const budget = new MessageBudget({ clock });
    const refreshes = new Map<string, number[]>();
    const base = countingSlack();
    const slack: TailSlack = {
      post: async (channel, threadTs, message) => {
        note(message.text);
        return base.post(channel, threadTs, message);
      },
      update: async (channel, ts, message) => {
        note(message.text);
        return base.update(channel, ts, message);
      },
    };
    function note(text: string): void {
      const vessel = text.slice(0, text.indexOf(' ('));
      if (text.includes(': live ·')) refreshes.set(vessel, [...(refreshes.get(vessel) ?? []), clock.now()]);
    }
    const runners = Array.from({ length: n }, (_, i) =>
      runner(`t${i}`, steadySource(clock, 20), slack, budget, clock),
    );
    await clock.advance(0);
    const from = clock.now();
    for (let t = 0; t < minutes * 60_000; t += 250) await clock.advance(250);
    const to = clock.now();
    let gap = 0;
    for (const list of refreshes.values()) {
      const points = [from, ...list.filter((x) => x >= from), to];
      for (let i = 1; i < points.length; i++)
        gap = Math.max(gap, (points[i] as number) - (points[i - 1] as number));
    }
    for (const r of runners) r.detach();
    await clock.advance(0);
    budget.close();
    const perMin = (k: number) => (k / minutes).toFixed(1).padStart(15);
    console.log(
      `  ${String(n).padStart(5)}  ${perMin(base.updates)}  ${perMin(base.posts).padStart(20)}  ${(gap / 1000).toFixed(1).padStart(17)} s`,
    );
  }
}

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '256' },
    'rss-gb': { type: 'string', default: '1' },
    'rss-tails': { type: 'string', default: '10' },
    minutes: { type: 'string', default: '10' },
  },
});
await throughput(Number(values.mb));
await memory(Number(values['rss-gb']), Number(values['rss-tails']));
await callsPerMinute([1, 10, 30], Number(values.minutes));
