/**
 * Ack latency under load, as Slack sees it. Four processes: Harbormaster
 * (started as main.ts starts it), a bare Bolt app of the same Bolt version
 * whose listeners only ack, the stand-ins (Slack's Web API and response
 * URLs; the hosting API answering every /api/** call `--latency-ms` late),
 * and this one, which fires `--requests` concurrent requests per burst at
 * each app in turn. Surfaces: slash commands, button clicks and modal
 * submissions; `--rounds` rounds, alternating which app goes first.
 * `--mode http` (default) signs and posts each request on its own
 * connection, timed here from send to answer; `--mode socket` runs both apps
 * in Socket Mode, connected to the stand-in's Socket Mode server, which sends
 * the envelopes and times each from its send to its ack's arrival.
 * Prints the p99 ratio per surface and checks the target: at most 1.0x bare
 * Bolt, no ack over 3 s, and the work behind the acks done without errors.
 * The measuring side (stand-ins, this client) collects its garbage before
 * each burst, so its pauses are not charged to an app; each burst's GC
 * pauses in the app and in the stand-ins are printed with the figures.
 * Run: npx tsx bench/slack-ack.ts [--mode http|socket] [--requests 200] [--latency-ms 2500] [--warmup 20] [--rounds 2] [--surfaces command,click,submit]
 * Profiles: BENCH_PROF=ack-bot writes Harbormaster's whole run as a V8 CPU profile;
 * BENCH_BURST_PROF=1 writes one per Harbormaster burst alone (burst-<surface>-<round>),
 * both to the directory ipc.ts names. Profiling slows the bot: its figures are not the target's.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SIGNING_SECRET } from '../test/e2e/slack/bot-harness.js';
import { collectGarbage, type GcPauses } from './support/gc-pauses.js';
import { type Child, forkChild, pinClientAndStandIns } from './support/ipc.js';
import { type Burst, burst, summarize, table } from './support/latency.js';

/** Tags of game-server in the demo data's dev branch: each round promotes a fresh one. */
const TAGS = ['1.2.0', '1.1.0', '1.0.0'] as const;
/**
 * The bot's own messages go out at Slack's pace (100 posts a minute, the Slack gateway's queue): a round's
 * work (100 command previews, 200 submission previews and their 200 asks for approval) takes
 * about 5 minutes of posts alone, so three rounds take about 20.
 */
const HARD_LIMIT_MS = 2_400_000;
/** Pause before each measured burst. */
const SETTLE_MS = 1000;
const TARGET_RATIO = 1.0;
const ACK_LIMIT_MS = 3000;
/** Modals opened per burst before the measurement: few enough that each opens within its trigger id's 3 s. */
const MODAL_BATCH = 50;
/** What each modal submission asks for (the promote modal, as a user fills it). */
const SUBMISSION = { image: 'game-server:1.2.0', targetBranch: 'prod' };

type Surface = 'command' | 'click' | 'submit';
type App = 'harbormaster' | 'bare bolt';
type Mode = 'http' | 'socket';
/** A request as the stand-ins write it: a body to sign and post, or a Socket Mode envelope. */
type Request = string | { type: string; payload: unknown };
/** Socket Mode: each app connects with its own app-level token, so the stand-in tells them apart. */
const APP_TOKENS: Record<App, string> = {
  harbormaster: 'xapp-1-A0HARBOR-1-bench',
  'bare bolt': 'xapp-1-A0BARE-1-bench',
};
type Key = `${Surface}/${App}`;
const SURFACES: readonly Surface[] = ['command', 'click', 'submit'];

/** Half read the slow API, half preview a change (API reads, policy, store, a posted message). */
function commandTexts(tag: string): string[] {
  return ['vessels dev', `promote game-server:${tag} from dev to staging`];
}

interface Options {
  mode: Mode;
  n: number;
  latencyMs: number;
  warmup: number;
  rounds: number;
  surfaces: readonly Surface[];
}

function positive(flag: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--${flag} must be a positive integer (got "${raw}"), e.g. --${flag} 200`);
  return n;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      mode: { type: 'string', default: 'http' },
      requests: { type: 'string', default: '200' },
      'latency-ms': { type: 'string', default: '2500' },
      warmup: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '2' },
      surfaces: { type: 'string', default: SURFACES.join(',') },
    },
  });
  const surfaces = values.surfaces.split(',').map((s) => s.trim());
  for (const s of surfaces)
    if (!(SURFACES as readonly string[]).includes(s))
      throw new Error(`--surfaces takes a comma-separated list of ${SURFACES.join(', ')} (got "${s}")`);
  const mode = values.mode;
  if (mode !== 'http' && mode !== 'socket') throw new Error(`--mode is http or socket (got "${mode}")`);
  const rounds = positive('rounds', values.rounds);
  if (rounds > TAGS.length)
    throw new Error(`--rounds can be at most ${TAGS.length} (one image tag per round)`);
  return {
    mode,
    n: positive('requests', values.requests),
    latencyMs: positive('latency-ms', values['latency-ms']),
    warmup: positive('warmup', values.warmup),
    rounds,
    surfaces: surfaces as Surface[],
  };
}

interface Parts {
  standIns: Child;
  bot: Child;
  bare: Child;
  /** Fires every request at `app` at once; times each until its ack arrives. */
  send(app: App, requests: readonly Request[]): Promise<Burst>;
  /** Which CPUs ran what, for the report. */
  placement: string;
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

async function startParts(mode: Mode): Promise<Parts> {
  const cpus = pinClientAndStandIns();
  const standIns = forkChild(here('./support/ack-stand-ins.ts'), cpus ? { cpus: cpus.others } : {});
  const bot = forkChild(here('./support/ack-bot.ts'), cpus ? { cpus: cpus.apps } : {});
  const bare = forkChild(here('./support/ack-bare.ts'), cpus ? { cpus: cpus.apps } : {});
  const outside = await standIns.call<{ slackApiUrl: string; simUrl: string; simToken: string }>('urls');
  const socket = (app: App) => (mode === 'socket' ? { appToken: APP_TOKENS[app] } : {});
  const [harbor, plain] = await Promise.all([
    bot.call<{ eventsUrl?: string }>('start', { ...outside, ...socket('harbormaster') }),
    bare.call<{ eventsUrl?: string }>('start', { slackApiUrl: outside.slackApiUrl, ...socket('bare bolt') }),
  ]);
  const urls: Record<App, string> = {
    harbormaster: harbor.eventsUrl ?? '',
    'bare bolt': plain.eventsUrl ?? '',
  };
  const send = async (app: App, requests: readonly Request[]): Promise<Burst> => {
    if (mode === 'http') {
      const bodies = requests.filter((r): r is string => typeof r === 'string');
      return burst(urls[app], SIGNING_SECRET, bodies);
    }
    const b = await standIns.call<{ latenciesMs: number[]; failures: Record<string, number> }>(
      'socketBurst',
      {
        appToken: APP_TOKENS[app],
        envelopes: requests,
      },
    );
    return { latenciesMs: b.latenciesMs, failures: new Map(Object.entries(b.failures)) };
  };
  const placement = cpus
    ? `both apps pinned to CPU ${cpus.apps}, this client and the stand-ins to CPU ${cpus.others}`
    : 'no CPU pinning (one CPU, or no taskset)';
  return {
    standIns,
    bot,
    bare,
    send,
    placement,
  };
}

/** How the stand-ins write requests for a mode: bodies to sign (HTTP) or envelopes (Socket Mode). */
const formOf = (mode: Mode) => (mode === 'http' ? 'body' : 'envelope');

/** The requests of one burst, written by the stand-ins (their URLs, triggers and views). */
function bodies(p: Parts, mode: Mode, surface: Surface, n: number, tag: string): Promise<Request[]> {
  const form = formOf(mode);
  if (surface === 'command') return p.standIns.call('commands', { texts: commandTexts(tag), n, form });
  if (surface === 'click') return p.standIns.call('clicks', { action: 'confirm', n, form });
  return p.standIns.call('submissions', { given: SUBMISSION, n, form });
}

const started = performance.now();
/** One line per step on stderr, as it starts, so a run that stalls shows where (stdout keeps the report). */
function progress(step: string): void {
  console.error(`slack-ack ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s: ${step}`);
}

/** One measured burst, and the GC pauses during it in the app and in the stand-ins (they time Socket Mode acks). */
interface Measured {
  burst: Burst;
  gc: GcPauses;
  standInGc: GcPauses;
}

/** Runs the warm-up and the measured rounds; returns every measured burst by surface and app, round by round. */
async function measure(p: Parts, o: Options): Promise<Map<Key, Measured[]>> {
  const measured = new Map<Key, Measured[]>();
  const send = (app: App, b: Request[]) => {
    progress(`${app}: ${b.length} requests`);
    return p.send(app, b);
  };
  const idle = () => {
    progress('harbormaster: waiting for the work behind the acks');
    return p.bot.call('idle');
  };
  const form = formOf(o.mode);

  // The promote modals the submissions fill in, one per submission, opened while the API is still fast.
  if (o.surfaces.includes('submit')) {
    let modals = 2 * o.warmup + o.rounds * o.n;
    progress(`opening ${modals} promote modals`);
    while (modals > 0) {
      const batch = Math.min(modals, MODAL_BATCH);
      await send(
        'harbormaster',
        await p.standIns.call<Request[]>('commands', { texts: ['promote'], n: batch, form }),
      );
      await idle();
      modals -= batch;
    }
  }
  await p.standIns.call('latency', o.latencyMs);

  // Warm-up: JIT, Bolt's cached auth.test, the store. Cancel, not Confirm, so no promotion
  // takes a tag a round needs.
  for (const app of ['harbormaster', 'bare bolt'] as const) {
    progress(`warm-up ${app}`);
    await send(app, await bodies(p, o.mode, 'command', o.warmup, TAGS[0]));
    await idle();
    await send(app, await p.standIns.call<Request[]>('clicks', { action: 'cancel', n: o.warmup, form }));
    // Submissions fill the modals opened above, only when submissions are measured.
    if (o.surfaces.includes('submit')) {
      await send(app, await bodies(p, o.mode, 'submit', o.warmup, TAGS[0]));
      await idle();
    }
  }

  for (let round = 0; round < o.rounds; round++) {
    const tag = TAGS[round] ?? TAGS[0];
    const order: App[] = round % 2 === 0 ? ['bare bolt', 'harbormaster'] : ['harbormaster', 'bare bolt'];
    for (const surface of o.surfaces) {
      progress(`round ${round + 1}/${o.rounds}: ${surface}`);
      if (surface === 'click' && !o.surfaces.includes('command')) {
        // Without a command burst, the clicks need a fresh preview to confirm.
        const preview = await p.standIns.call<Request[]>('commands', {
          texts: commandTexts(tag).slice(1),
          n: 1,
          form,
        });
        await send('harbormaster', preview);
        await idle();
      }
      // Both apps get the same requests (same preview, same view); the bot finishes its work
      // before the next burst, so every burst starts from a quiet bot.
      const sameBodies = await bodies(p, o.mode, surface, o.n, tag);
      for (const app of order) {
        // The measuring side starts from a collected heap (its records grow with every request);
        // then whatever the last burst left (closing sockets) settles, so the app that goes second
        // in a round does not pay for the first. The apps' own heaps are left as their work left them.
        await Promise.all([collectGarbage(), p.standIns.call('collect')]);
        await sleep(SETTLE_MS);
        const profiled = app === 'harbormaster' && process.env.BENCH_BURST_PROF;
        const child = app === 'harbormaster' ? p.bot : p.bare;
        // Forgets the pauses before the burst, so what the next read returns fell inside it.
        await child.call('gcPauses');
        if (profiled) await p.bot.call('burstProfile', { start: true });
        const burst = await send(app, sameBodies);
        if (profiled) await p.bot.call('burstProfile', { start: false, label: `${surface}-${round + 1}` });
        const gc = await child.call<GcPauses>('gcPauses');
        const standInGc = await p.standIns.call<GcPauses>('gcPauses');
        const key: Key = `${surface}/${app}`;
        measured.set(key, [...(measured.get(key) ?? []), { burst, gc, standInGc }]);
        await idle();
      }
    }
  }
  return measured;
}

/** What a row measures, per mode. */
const HOW: Record<Mode, string> = {
  http: 'signed requests, each on its own connection, timed from send to the answer',
  socket:
    "Socket Mode envelopes over the app's connection to the stand-in, written there in one write per burst and timed from that write to each ack received",
};
/** The failure column: HTTP answers other than 200, or envelopes never acked. */
const FAILED: Record<Mode, string> = { http: 'not 200', socket: 'not acked' };

/** All bursts of one kind as one sample. */
function pooled(bursts: readonly Burst[]): Burst {
  const failures = new Map<string, number>();
  for (const b of bursts) for (const [k, v] of b.failures) failures.set(k, (failures.get(k) ?? 0) + v);
  return { latenciesMs: bursts.flatMap((b) => b.latenciesMs).sort((a, b) => a - b), failures };
}

interface WorkReport {
  bot: {
    ackMeansMs: Record<string, number>;
    errorsCounted: number;
    errorsWhere: string[];
    errorLines: string[];
  };
  world: {
    apiCalls: number;
    promotions: number;
    posts: number;
    responses: number;
    viewUpdates: number;
    failedSlackCalls: string[];
  };
}

function report(measured: Map<Key, Measured[]>, o: Options, work: WorkReport, placement: string): boolean {
  const rounds = (surface: Surface, app: App) => measured.get(`${surface}/${app}`) ?? [];
  const ms = (v: number) => v.toFixed(1);
  const rows: string[][] = [
    ['surface', 'app', 'n', 'p50 ms', 'p99 ms', 'max ms', FAILED[o.mode], 'p50 ratio', 'p99 ratio'],
  ];
  const verdicts: string[] = [];
  let ok = true;
  const perRound: string[] = [];
  const gcByRound: string[] = [];
  const standInGcByRound: string[] = [];
  const gcFigures = (g: GcPauses) =>
    `${g.count}, ${ms(g.totalMs)}, ${ms(g.longestMs)}${g.count ? ` ${g.longestKind}` : ''}, heap ${Math.round(g.heapMb)}`;
  for (const surface of o.surfaces) {
    const base = summarize(pooled(rounds(surface, 'bare bolt').map((r) => r.burst)));
    for (const app of ['bare bolt', 'harbormaster'] as const) {
      const s = summarize(pooled(rounds(surface, app).map((r) => r.burst)));
      const bot = app === 'harbormaster';
      rows.push([
        surface,
        app,
        String(s.count),
        ms(s.p50),
        ms(s.p99),
        ms(s.max),
        String(s.failed),
        bot ? `${(s.p50 / base.p50).toFixed(2)}x` : '',
        bot ? `${(s.p99 / base.p99).toFixed(2)}x` : '',
      ]);
      const byRound = (figures: (r: Measured) => string) =>
        `${surface} ${app}: ${rounds(surface, app).map(figures).join(' / ')}`;
      perRound.push(byRound((r) => ms(summarize(r.burst).p99)));
      gcByRound.push(byRound((r) => gcFigures(r.gc)));
      standInGcByRound.push(byRound((r) => gcFigures(r.standInGc)));
      if (s.failed > 0) {
        ok = false;
        verdicts.push(
          `FAIL ${app} ${surface}: ${s.failed} ${o.mode === 'http' ? 'answers were not HTTP 200' : 'envelopes were not acked'}`,
        );
      }
      if (!bot) continue;
      const ratio = s.p99 / base.p99;
      const pass = ratio <= TARGET_RATIO && s.max <= ACK_LIMIT_MS;
      ok &&= pass;
      verdicts.push(
        `${pass ? 'PASS' : 'FAIL'} ${surface}: p99 ${ratio.toFixed(2)}x bare Bolt (target <= ${TARGET_RATIO}x), ` +
          `slowest ack ${ms(s.max)} ms (limit ${ACK_LIMIT_MS})`,
      );
    }
  }
  const workErrors = work.bot.errorsCounted + work.bot.errorLines.length + work.world.failedSlackCalls.length;
  ok &&= workErrors === 0;
  verdicts.push(
    `${workErrors === 0 ? 'PASS' : 'FAIL'} work behind the acks: ${work.bot.errorsCounted} counted errors` +
      `${work.bot.errorsWhere.length ? ` (${work.bot.errorsWhere.join(', ')})` : ''}, ` +
      `${work.bot.errorLines.length} error log lines, ${work.world.failedSlackCalls.length} failed Slack calls`,
  );
  console.log(
    `Ack latency, four processes (harbormaster, bare Bolt ${'5.1.0'}, stand-ins, this client). ${o.rounds} rounds ` +
      `of ${o.n} concurrent ${HOW[o.mode]} per row (pooled); ${placement}.\nThe hosting API answers every /api/** call ${o.latencyMs} ms late. Commands: half ` +
      `"/harbor ${commandTexts('X')[0]}", half "/harbor ${commandTexts('<tag>')[1]}". Clicks: Confirm on ` +
      `one pending preview. Submissions: the promote modal (${SUBMISSION.image} to ${SUBMISSION.targetBranch}).\n`,
  );
  console.log(table(rows, 2));
  console.log(`\np99 ms by round: ${perRound.join('; ')}`);
  console.log(
    `GC pauses during each burst (count, total ms, longest ms and its kind, heap MB after) by round, in the app: ${gcByRound.join('; ')}` +
      `\n  in the stand-ins: ${standInGcByRound.join('; ')}`,
  );
  const means = Object.entries(work.bot.ackMeansMs)
    .map(([k, v]) => `${k} ${v.toFixed(2)} ms`)
    .join(', ');
  console.log(
    `\nharbormaster's own timer from deciding an ack (before Bolt's chain) to sending it (harbor_ack_seconds), mean: ${means}` +
      `\nwork done behind the acks: ${work.world.apiCalls} hosting-API calls, ${work.world.posts} chat.postMessage, ` +
      `${work.world.responses} response_url posts, ${work.world.viewUpdates} views.update, ` +
      `${work.world.promotions} promotion(s) applied`,
  );
  for (const line of [...work.bot.errorLines, ...work.world.failedSlackCalls].slice(0, 10))
    console.log(`  ${line}`);
  console.log(`\n${verdicts.join('\n')}`);
  return ok;
}

async function main(): Promise<number> {
  const o = readOptions();
  progress(`starting the four processes (${o.mode})`);
  const parts = await startParts(o.mode);
  try {
    const measured = await measure(parts, o);
    progress('collecting the report');
    const work: WorkReport = {
      bot: await parts.bot.call('report'),
      world: await parts.standIns.call('stats'),
    };
    return report(measured, o, work, parts.placement) ? 0 : 1;
  } finally {
    await Promise.allSettled([parts.bot.call('stop'), parts.bare.call('stop')]);
    await parts.standIns.call('stop').catch(() => undefined);
    await Promise.all([parts.bot.end(), parts.bare.end(), parts.standIns.end()]);
  }
}

const watchdog = setTimeout(() => {
  console.error(`slack-ack: gave up after ${HARD_LIMIT_MS / 1000} s`);
  process.exit(2);
}, HARD_LIMIT_MS);
watchdog.unref();
process.exit(await main());
