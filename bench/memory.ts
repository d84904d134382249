/**
 * Memory and start-up of a production-mode replica against a bare Bolt app.
 * Harbormaster runs as `npm start` runs it (node dist/main.js: HTTP mode,
 * SQLite, the hosting API remote, here the simulator in the stand-ins'
 * process); the bare Bolt app (support/bare-bolt.ts) is bundled to plain
 * JavaScript and run by node the same way, so no TypeScript loader weighs on
 * either. Both get the same preloaded probe (support/memory-probe.ts) that
 * reports process.memoryUsage() after a GC.
 *
 * For each app, one at a time, in a process of its own: the start time
 * (spawn to the first signed command answered 200), RSS and heap used when
 * idle, then after each of `--rounds` rounds of `--commands` signed slash
 * commands and `--clicks` button clicks (once the work behind them has
 * settled). Prints the figures, the ratios to bare Bolt, and checks the
 * targets: idle RSS within 1.5x, RSS after load within 2x, no RSS growth
 * between the last two rounds beyond --growth-mb, start under 0.5 s.
 * A single start varies by ±15 % from run to run on a shared machine, so each
 * app is started `--starts` times (each on a fresh data folder, as a first
 * start), the two apps taking turns so the machine's drift weighs on both
 * alike, and the median start is the figure; the range is printed beside it.
 * Then each app is started once more for the memory rounds.
 * Run: npx tsx bench/memory.ts [--commands 10000] [--clicks 1000] [--rounds 2] [--concurrency 20] [--starts 5]
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { TEST_BOT } from '../src/workspace/identity.js';
import { postSigned } from '../src/workspace/signing.js';
import { E2E_POLICY, SIGNING_SECRET } from '../test/e2e/slack/bot-harness.js';
import { type Child, forkChild } from './support/ipc.js';
import { table } from './support/latency.js';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'node_modules/.cache/harbor-bench');
const IDLE_RATIO = 1.5;
const LOADED_RATIO = 2;
const START_LIMIT_S = 0.5;
/** How long an app may take to answer its first signed request before the run fails. */
const START_TIMEOUT_MS = 30_000;
/** The work behind the requests has settled when the stand-ins saw no new call for this long. */
const QUIET_MS = 2_000;
/** One preview per ten commands; the rest read (the API through the bot) or answer from the bot alone. */
const COMMAND_TEXTS = [
  'vessels dev',
  'help',
  'armadas dev',
  'vessels dev',
  'help',
  'promote game-server:1.2.0 from dev to staging',
  'vessels dev',
  'help',
  'armadas dev',
  'help',
];

type App = 'bare bolt' | 'harbormaster';

interface Options {
  commands: number;
  clicks: number;
  rounds: number;
  concurrency: number;
  growthMb: number;
  starts: number;
}

function positive(flag: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--${flag} must be a positive integer (got "${raw}"), e.g. --${flag} 100`);
  return n;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      commands: { type: 'string', default: '10000' },
      clicks: { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '2' },
      concurrency: { type: 'string', default: '20' },
      'growth-mb': { type: 'string', default: '10' },
      starts: { type: 'string', default: '5' },
    },
  });
  return {
    commands: positive('commands', values.commands),
    clicks: positive('clicks', values.clicks),
    rounds: positive('rounds', values.rounds),
    concurrency: positive('concurrency', values.concurrency),
    growthMb: positive('growth-mb', values['growth-mb']),
    starts: positive('starts', values.starts),
  };
}

/** A port nobody listens on now, so the app's start can be timed up to its first answer there. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Bundles the bare app and the probe to plain JavaScript (packages stay imports of node_modules). */
async function bundleSupport(): Promise<{ bare: string; probe: string }> {
  await mkdir(OUT, { recursive: true });
  const bare = join(OUT, 'memory-bare.mjs');
  const probe = join(OUT, 'memory-probe.mjs');
  for (const [entry, outfile] of [
    ['support/memory-bare.ts', bare],
    ['support/memory-probe.ts', probe],
  ] as const)
    await build({
      entryPoints: [join(import.meta.dirname, entry)],
      outfile,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node22',
      logLevel: 'warning',
    });
  return { bare, probe };
}

/** Node's flags in `npm start` (`node <flags> dist/main.js`), so the bench runs the bot as production does. */
function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  return words.slice(1, words.indexOf('dist/main.js'));
}

/** The production build, as `npm start` makes it (only when a source changed). */
function buildHarbormaster(): string {
  const run = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) throw new Error('the build failed');
  return join(ROOT, 'dist/main.js');
}

interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

interface Running {
  proc: ChildProcess;
  url: string;
  startSeconds: number;
  measure(): Promise<Memory>;
  stop(): Promise<void>;
}

/** Spawns `entry` with the probe and times it until a signed command is answered 200. */
async function launch(
  entry: string,
  probe: string,
  env: Record<string, string>,
  firstCommand: () => Promise<string>,
  nodeFlags: string[] = [],
): Promise<Running> {
  const port = Number(env.PORT);
  const url = `http://127.0.0.1:${port}/slack/events`;
  const body = await firstCommand();
  const started = performance.now();
  const proc = fork(entry, [], {
    execArgv: [...nodeFlags, '--expose-gc', '--import', pathToFileURL(probe).href],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(proc, 'exit');
  let answered = false;
  while (!answered) {
    if (proc.exitCode !== null) throw new Error(`${entry} exited (${proc.exitCode}) before answering`);
    if (performance.now() - started > START_TIMEOUT_MS)
      throw new Error(`${entry} did not answer a signed request within ${START_TIMEOUT_MS} ms`);
    try {
      answered = (await postSigned(url, SIGNING_SECRET, body)).status === 200;
    } catch {
      // Not listening yet: ask again shortly.
    }
    if (!answered) await sleep(5);
  }
  const startSeconds = (performance.now() - started) / 1000;
  return {
    proc,
    url,
    startSeconds,
    measure: async () => {
      const answer = once(proc, 'message');
      proc.send('measure');
      const [message] = (await answer) as [{ memory: Memory }];
      return message.memory;
    },
    stop: async () => {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** POSTs every body signed, `concurrency` at a time; returns how many were not answered 200. */
async function send(url: string, bodies: readonly string[], concurrency: number): Promise<number> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++] ?? '';
      try {
        if ((await postSigned(url, SIGNING_SECRET, body)).status !== 200) failed += 1;
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failed;
}

interface Stats {
  apiCalls: number;
  posts: number;
  responses: number;
  viewUpdates: number;
}

/** Waits until the stand-ins saw no new call for QUIET_MS: the follow-up work behind the acks is done. */
async function settled(standIns: Child): Promise<void> {
  let last = '';
  let quietSince = performance.now();
  for (;;) {
    const s = await standIns.call<Stats>('stats');
    const now = JSON.stringify([s.apiCalls, s.posts, s.responses, s.viewUpdates]);
    if (now !== last) {
      last = now;
      quietSince = performance.now();
    } else if (performance.now() - quietSince >= QUIET_MS) return;
    await sleep(250);
  }
}

interface Figures {
  /** Every start, fastest first. */
  startSeconds: number[];
  idle: Memory;
  rounds: Memory[];
  failed: number;
}

/**
 * Starts each app `n` times, taking turns (harbormaster, bare bolt, harbormaster, ...), and
 * returns each app's start times, fastest first. A shared machine's speed drifts over minutes
 * (a bare Bolt start took 0.49 s in one run and 0.65 s in the next): starts measured in two
 * blocks, one app after the other, carried that drift into the ratio.
 */
async function measureStarts(launchers: readonly (() => Promise<Running>)[], n: number): Promise<number[][]> {
  const seconds = launchers.map((): number[] => []);
  for (let start = 0; start < n; start++) {
    for (const [app, launchApp] of launchers.entries()) {
      const started = await launchApp();
      seconds[app]?.push(started.startSeconds);
      await started.stop();
    }
  }
  return seconds.map((s) => s.sort((a, b) => a - b));
}

/** Starts one app, measures it idle and after each round, stops it. */
async function measureApp(
  app: App,
  launchApp: () => Promise<Running>,
  standIns: Child,
  o: Options,
): Promise<Omit<Figures, 'startSeconds'>> {
  const running = await launchApp();
  try {
    await settled(standIns);
    const idle = await running.measure();
    const rounds: Memory[] = [];
    let failed = 0;
    for (let round = 0; round < o.rounds; round++) {
      const commands = await standIns.call<string[]>('commands', { texts: COMMAND_TEXTS, n: o.commands });
      failed += await send(running.url, commands, o.concurrency);
      // The previews must be posted before the clicks can press one.
      await settled(standIns);
      // Clicks on the newest preview (bare Bolt gets the same bodies; it only acks them).
      const clicks = await standIns.call<string[]>('clicks', { action: 'confirm', n: o.clicks });
      failed += await send(running.url, clicks, o.concurrency);
      await settled(standIns);
      rounds.push(await running.measure());
      process.stdout.write(`${app}: round ${round + 1} of ${o.rounds} done\n`);
    }
    return { idle, rounds, failed };
  } finally {
    await running.stop();
  }
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
/** The middle start (the mean of the middle two for an even count). */
const median = (sorted: readonly number[]) =>
  ((sorted[Math.floor((sorted.length - 1) / 2)] ?? 0) + (sorted[Math.ceil((sorted.length - 1) / 2)] ?? 0)) /
  2;
const starts = (sorted: readonly number[]) =>
  `${median(sorted).toFixed(2)} s (${sorted[0]?.toFixed(2)}-${sorted.at(-1)?.toFixed(2)})`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

function report(bare: Figures, harbor: Figures, o: Options): boolean {
  const rows: string[][] = [
    ['', 'bare bolt RSS', 'harbormaster RSS', 'ratio', 'bare heap', 'harbor heap', 'ratio'],
  ];
  const line = (label: string, b: Memory, h: Memory) =>
    rows.push([
      label,
      `${mb(b.rss)} MB`,
      `${mb(h.rss)} MB`,
      ratio(h.rss, b.rss),
      `${mb(b.heapUsed)} MB`,
      `${mb(h.heapUsed)} MB`,
      ratio(h.heapUsed, b.heapUsed),
    ]);
  line('idle', bare.idle, harbor.idle);
  bare.rounds.forEach((b, i) => {
    const h = harbor.rounds[i];
    if (h) line(`after round ${i + 1}`, b, h);
  });
  process.stdout.write(
    `\n${o.rounds} rounds of ${o.commands} signed commands and ${o.clicks} clicks, ${o.concurrency} at a time; memory after a GC\n\n`,
  );
  process.stdout.write(`${table(rows)}\n\n`);
  // Where RSS is that the JS heap does not explain: V8's reserved heap, Buffers and native allocations.
  for (const [app, f] of [
    ['bare bolt', bare],
    ['harbormaster', harbor],
  ] as const) {
    const m = f.rounds.at(-1) ?? f.idle;
    process.stdout.write(
      `${app} after load: heap total ${mb(m.heapTotal)} MB, external ${mb(m.external)} MB (array buffers ${mb(m.arrayBuffers)} MB), outside the V8 heap ${mb(m.rss - m.heapTotal - m.external)} MB\n`,
    );
  }
  process.stdout.write(
    `start to a signed request answered, median of ${o.starts} (range): bare bolt ${starts(bare.startSeconds)}, harbormaster ${starts(harbor.startSeconds)} (${ratio(median(harbor.startSeconds), median(bare.startSeconds))})\n`,
  );
  const problems: string[] = [];
  const lastH = harbor.rounds.at(-1) ?? harbor.idle;
  const lastB = bare.rounds.at(-1) ?? bare.idle;
  if (harbor.idle.rss > IDLE_RATIO * bare.idle.rss) problems.push(`idle RSS over ${IDLE_RATIO}x bare Bolt`);
  if (lastH.rss > LOADED_RATIO * lastB.rss) problems.push(`RSS after load over ${LOADED_RATIO}x bare Bolt`);
  const prev = harbor.rounds.at(-2);
  if (prev) {
    const growth = (lastH.rss - prev.rss) / 1048576;
    process.stdout.write(
      `harbormaster RSS from round ${harbor.rounds.length - 1} to ${harbor.rounds.length}: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB\n`,
    );
    if (growth > o.growthMb) problems.push(`RSS grew ${growth.toFixed(1)} MB between the last two rounds`);
  }
  if (median(harbor.startSeconds) > START_LIMIT_S) problems.push(`median start over ${START_LIMIT_S} s`);
  if (bare.failed + harbor.failed > 0)
    problems.push(`requests not answered 200: bare bolt ${bare.failed}, harbormaster ${harbor.failed}`);
  process.stdout.write(problems.length === 0 ? 'targets met\n' : `TARGETS MISSED: ${problems.join('; ')}\n`);
  return problems.length === 0;
}

const options = readOptions();
const { bare: bareEntry, probe } = await bundleSupport();
const harborEntry = buildHarbormaster();
const standIns = forkChild(join(import.meta.dirname, 'support/ack-stand-ins.ts'));
const dataDir = await mkdtemp(join(tmpdir(), 'harbor-bench-memory-'));
let ok = false;
try {
  const outside = await standIns.call<{ slackApiUrl: string; simUrl: string; simToken: string }>('urls');
  const policy = join(dataDir, 'policy.yml');
  await writeFile(policy, E2E_POLICY);
  const slackEnv = async () => ({
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_BOT_TOKEN: TEST_BOT.token,
    SLACK_API_URL: outside.slackApiUrl,
    PORT: String(await freePort()),
  });
  const help = async () => (await standIns.call<string[]>('commands', { texts: ['help'], n: 1 }))[0] ?? '';
  const launchHarbor = async () =>
    launch(
      harborEntry,
      probe,
      {
        ...(await slackEnv()),
        GAMEFABRIC_URL: outside.simUrl,
        GAMEFABRIC_TOKEN: outside.simToken,
        // A fresh folder per start: each start migrates its store, as a replica's first start does.
        HARBOR_DATA_DIR: await mkdtemp(join(dataDir, 'data-')),
        HARBOR_POLICY: policy,
        HARBOR_REPLICA_ID: 'bench-memory',
        HARBOR_LOG_LEVEL: 'warn',
      },
      help,
      startFlags(),
    );
  const launchBare = async () => launch(bareEntry, probe, await slackEnv(), help);
  const [harborStarts = [], bareStarts = []] = await measureStarts(
    [launchHarbor, launchBare],
    options.starts,
  );
  // Harbormaster first: its previews are what both apps' clicks press (bare Bolt only acks them).
  const harbor = {
    startSeconds: harborStarts,
    ...(await measureApp('harbormaster', launchHarbor, standIns, options)),
  };
  const bare = {
    startSeconds: bareStarts,
    ...(await measureApp('bare bolt', launchBare, standIns, options)),
  };
  ok = report(bare, harbor, options);
} finally {
  await standIns.call('stop').catch(() => undefined);
  await standIns.end();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
