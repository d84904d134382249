/**
 * Live tails against Slack's rate limits, end to end: the whole bot (started
 * as main.ts starts it) follows `--tails` vessels writing `--lines` lines per
 * vessel every 250 ms of a ManualClock, against the Slack stand-in enforcing
 * Slack's budgets (chat.update 50 a minute per workspace, chat.postMessage 1 a
 * second per channel) on that clock. Two runs, each printing its figures and
 * PASS/FAIL against what the shared budget promises:
 * 1. Firehose for `--minutes` of the tail clock: no call refused, at most 50
 *    edits in any minute, every tail refreshed at least every 30 s and still
 *    showing lines from the last half minute.
 * 2. A forced 429 (Retry-After 20 s) after a warm-up: nobody edits during the
 *    pause, the first edit comes as it ends, no tail is lost.
 * A load run, not a test: it takes a minute or more of real time.
 * Run: npx tsx bench/tails-rate-limit.ts [--tails 20] [--lines 20] [--minutes 3]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { RecordedCall } from '../src/workspace/stand-in.js';
import { startTailBot, type TailBot, turn } from '../test/slack/tails/e2e-bot.js';

const STEP_MS = 250;
const REFRESH_GAP_LIMIT_MS = 30_000;
const UPDATES_PER_MINUTE = 50;
const RETRY_AFTER_S = 20;

interface Options {
  tails: number;
  lines: number;
  minutes: number;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      tails: { type: 'string', default: '20' },
      lines: { type: 'string', default: '20' },
      minutes: { type: 'string', default: '3' },
    },
    strict: false,
  });
  const num = (name: keyof Options, min: number) => {
    const n = Number(values[name]);
    if (!Number.isFinite(n) || n < min)
      throw new Error(`--${name} must be a number >= ${min}, got ${values[name]}`);
    return n;
  };
  return { tails: num('tails', 1), lines: num('lines', 1), minutes: num('minutes', 1) };
}

/** The bot with `tails` extra vessels, every one followed and its stream open. */
async function startFollowing(tails: number): Promise<{ h: TailBot; vessels: string[] }> {
  const h = await startTailBot({ extraVessels: tails });
  h.slack.enforceLimits({ chatUpdatePerMinute: UPDATES_PER_MINUTE, postMessagePerChannelPerSecond: 1 });
  const vessels = Array.from({ length: tails }, (_, i) => `load-${i}`);
  for (const vessel of vessels) {
    const ack = await h.slash(`logs dev ${vessel} --follow`);
    if (ack.status !== 200)
      throw new Error(`/harbor logs dev ${vessel} --follow answered HTTP ${ack.status}`);
  }
  await h.settle();
  await h.pumpUntil(() => h.sim.openLogStreams() === tails, 'every log stream');
  return { h, vessels };
}

/** Runs `ms` of the tail clock with every vessel writing `perStep` lines each step. */
async function firehose(h: TailBot, vessels: string[], ms: number, perStep: number, label: string) {
  for (let t = 0; t < ms; t += STEP_MS) {
    for (const vessel of vessels) {
      h.sim.emitLogLines(
        'dev',
        vessel,
        Array.from({ length: perStep }, (_, i) => `${label} ${vessel} t=${t} #${i} ${'x'.repeat(60)} <&>`),
      );
    }
    // The lines cross real sockets to reach the tails; give them a few turns before time moves.
    for (let i = 0; i < 10; i++) await turn();
    await h.quiesce();
    await h.clock.advance(STEP_MS);
  }
  await h.quiesce();
}

/** Clock times of each tail's refreshes (edits and posts of its live message), by thread. */
async function refreshTimes(h: TailBot): Promise<Map<string, number[]>> {
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
    const points = [from, ...list.filter((t) => t >= from && t <= to), to];
    for (let i = 1; i < points.length; i++)
      worst = Math.max(worst, (points[i] as number) - (points[i - 1] as number));
  }
  return worst;
}

/** Most successful chat.update calls inside any one minute of the clock. */
function busiestMinute(h: TailBot): number {
  const updates = h.slack
    .callsTo('chat.update')
    .filter((c) => c.status === 200)
    .map((c) => c.at);
  return Math.max(0, ...updates.map((at) => updates.filter((u) => u > at - 60_000 && u <= at).length));
}

const verdict = (pass: boolean, what: string) => `  ${pass ? 'PASS' : 'FAIL'} ${what}`;

async function firehoseRun(o: Options): Promise<boolean> {
  const started = performance.now();
  const { h, vessels } = await startFollowing(o.tails);
  try {
    const from = h.clock.now();
    await firehose(h, vessels, o.minutes * 60_000, o.lines, 'load');
    const to = h.clock.now();
    const times = await refreshTimes(h);
    const gap = longestGap(times, from, to);
    const busiest = busiestMinute(h);
    const tails = await h.tails();
    const lastT = Math.floor((o.minutes * 60_000 - REFRESH_GAP_LIMIT_MS) / 1000);
    const stale = tails.filter((t) => {
      const live = h.slack.message('C0OPS', (t.state as { messageTs?: string }).messageTs ?? '');
      const shownTimes = [...JSON.stringify(live?.blocks ?? []).matchAll(/t=(\d+)/g)].map((m) =>
        Number(m[1]),
      );
      return (
        !/live · \d+ lines seen · \d+ not shown/.test(live?.text ?? '') ||
        Math.max(...shownTimes) / 1000 < lastT
      );
    });
    const perSecond = (o.tails * o.lines * 1000) / STEP_MS;
    console.log(
      `firehose: ${o.tails} tails, ${perSecond} lines/s for ${o.minutes} min of clock (${((performance.now() - started) / 1000).toFixed(1)} s real)`,
    );
    console.log(`  chat.update calls        : ${h.slack.callsTo('chat.update').length}`);
    console.log(`  chat.postMessage calls   : ${h.slack.callsTo('chat.postMessage').length}`);
    console.log(`  busiest minute of edits  : ${busiest} (limit ${UPDATES_PER_MINUTE})`);
    console.log(
      `  longest refresh gap      : ${(gap / 1000).toFixed(2)} s (limit ${REFRESH_GAP_LIMIT_MS / 1000} s)`,
    );
    const checks = [
      verdict(h.slack.rateLimited.length === 0, `no call refused (${h.slack.rateLimited.length} refused)`),
      verdict(busiest <= UPDATES_PER_MINUTE, `at most ${UPDATES_PER_MINUTE} edits in any minute`),
      verdict(
        times.size === o.tails && gap <= REFRESH_GAP_LIMIT_MS,
        'every tail refreshed at least every 30 s',
      ),
      verdict(
        tails.every((t) => t.status === 'active') && stale.length === 0,
        `every tail live and showing the last half minute (${stale.length} behind)`,
      ),
    ];
    for (const line of checks) console.log(line);
    return checks.every((line) => line.includes('PASS'));
  } finally {
    await h.stop();
  }
}

async function forcedLimitRun(o: Options): Promise<boolean> {
  const started = performance.now();
  const lines = Math.max(1, Math.floor(o.lines / 4));
  const { h, vessels } = await startFollowing(o.tails);
  try {
    await firehose(h, vessels, 30_000, lines, 'warm');
    h.slack.forceRateLimit('chat.update', { count: 1, retryAfterSeconds: RETRY_AFTER_S });
    const before = h.slack.calls.length;
    await firehose(h, vessels, 90_000, lines, 'after');
    const limited = h.slack.rateLimited;
    const at = limited[0]?.at ?? Number.NaN;
    const resume = at + RETRY_AFTER_S * 1000;
    const updates = h.slack.calls.slice(before).filter((c) => c.method === 'chat.update' && c.status === 200);
    const during = updates.filter((c) => c.at < resume).length;
    const firstAfter = updates[0]?.at ?? Number.NaN;
    const tails = await h.tails();
    const times = await refreshTimes(h);
    const carriedOn = [...times.values()].filter((list) => list.some((t) => t > resume)).length;
    console.log(
      `forced 429: Retry-After ${RETRY_AFTER_S} s among ${o.tails} tails (${((performance.now() - started) / 1000).toFixed(1)} s real)`,
    );
    console.log(
      `  first edit after the pause: ${((firstAfter - resume) / 1000).toFixed(2)} s after it ended`,
    );
    const checks = [
      verdict(limited.length === 1, `exactly the forced call refused (${limited.length})`),
      verdict(during === 0, `no edits during the pause (${during})`),
      verdict(firstAfter <= resume + STEP_MS, 'the first edit comes as the pause ends'),
      verdict(
        tails.every((t) => t.status === 'active') && carriedOn === o.tails,
        `every tail carried on (${carriedOn} of ${o.tails})`,
      ),
    ];
    for (const line of checks) console.log(line);
    return checks.every((line) => line.includes('PASS'));
  } finally {
    await h.stop();
  }
}

const o = options();
const passed = [await firehoseRun(o), await forcedLimitRun(o)];
process.exit(passed.every(Boolean) ? 0 : 1);
