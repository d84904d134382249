/**
 * Ack latency of slash commands and button clicks under load: N signed
 * requests at once into the real bot (started as main.ts starts it, the API
 * simulator answering every /api/** call 2.5 s late) and into a bare Bolt app
 * whose listeners only ack. Any hosting-API call made before the ack would
 * push the bot's figures to 2.5 s and beyond; the ratio shows what the bot's
 * own pre-ack work costs over Bolt's. Everything shares one process (as the
 * e2e harness does), so the bot's post-ack work competes with later acks.
 * Run: npx tsx bench/slack-ack.ts [--requests 200] [--latency-ms 2500] [--warmup 20] [--rounds 3]
 */
import { parseArgs } from 'node:util';
import { CHANGE_ACTIONS } from '../src/slack/ids.js';
import { TEST_BOT, TEST_CHANNEL } from '../src/workspace/identity.js';
import { blockActionsPayload, interactionBody, slashCommandBody } from '../src/workspace/signing.js';
import type { StoredMessage } from '../src/workspace/stand-in.js';
import { ALICE, type BotHarness, SIGNING_SECRET, startBotHarness } from '../test/e2e/slack/bot-harness.js';
import { startBareBolt } from './support/bare-bolt.js';
import { type Burst, burst, summarize, table } from './support/latency.js';

/** Tags of game-server in the demo data's dev branch: each round promotes a fresh one. */
const TAGS = ['1.2.0', '1.1.0', '1.0.0'] as const;
/** However the run goes, the process ends by then. */
const HARD_LIMIT_MS = 120_000;
/** How long shutdown may wait for work still talking to the slow API. */
const STOP_WAIT_MS = 15_000;

/** Half read the slow API after the ack, half preview a change (API reads, store, a posted message). */
function commandTexts(tag: string): string[] {
  return ['vessels dev', `promote game-server:${tag} from dev to staging`];
}

type Surface = 'command' | 'click';

/** `n` slash commands, alternating `texts`, each with its own response_url and trigger id. */
function commandBodies(h: BotHarness, texts: readonly string[], n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    slashCommandBody({
      text: texts[i % texts.length],
      user_id: ALICE.id,
      user_name: ALICE.name,
      response_url: h.slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id }),
      trigger_id: h.slack.triggerId(),
    }),
  );
}

/** `n` clicks on the button `actionId` of `message`, as Slack sends them. */
function clickBodies(h: BotHarness, message: StoredMessage, actionId: string, n: number): string[] {
  return Array.from({ length: n }, () =>
    interactionBody(
      blockActionsPayload({
        actionId,
        user: ALICE,
        channel: TEST_CHANNEL,
        message,
        responseUrl: h.slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id, messageTs: message.ts }),
        triggerId: h.slack.triggerId(),
      }),
    ),
  );
}

/** The newest message in the channel carrying a Confirm button, i.e. a pending change's preview. */
function latestPreview(h: BotHarness): StoredMessage {
  const preview = h.slack
    .channelMessages(TEST_CHANNEL.id)
    .filter((m) => JSON.stringify(m.blocks).includes(CHANGE_ACTIONS.confirm))
    .at(-1);
  if (!preview) throw new Error('the bot posted no change preview with a Confirm button');
  return preview;
}

/** Mean of the bot's ack histogram per kind, in ms: the part of the latency inside its listener. */
async function listenerAckMeans(h: BotHarness): Promise<string> {
  const { values } = await h.running.metrics.ackSeconds.get();
  const total = (suffix: string, kind: string) =>
    values.find((v) => v.metricName === `harbor_ack_seconds_${suffix}` && v.labels.kind === kind)?.value ?? 0;
  return (['command', 'click'] as const)
    .map((kind) => `${kind} ${((1000 * total('sum', kind)) / total('count', kind)).toFixed(2)} ms`)
    .join(', ');
}

function positive(flag: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--${flag} must be a positive integer (got "${raw}"), e.g. --${flag} 200`);
  return n;
}

function failureText(b: Burst): string {
  return [...b.failures].map(([reason, n]) => `${n}x ${reason}`).join(', ');
}

interface Options {
  n: number;
  latencyMs: number;
  warmup: number;
  rounds: number;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '200' },
      'latency-ms': { type: 'string', default: '2500' },
      warmup: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '3' },
    },
  });
  const rounds = positive('rounds', values.rounds);
  if (rounds > TAGS.length)
    throw new Error(`--rounds can be at most ${TAGS.length} (one image tag per round)`);
  return {
    n: positive('requests', values.requests),
    latencyMs: positive('latency-ms', values['latency-ms']),
    warmup: positive('warmup', values.warmup),
    rounds,
  };
}

type App = 'harbormaster' | 'bare bolt';
type Key = `${Surface}/${App}`;

/** Runs the warm-up and the measured rounds; returns every measured burst by surface and app. */
async function measure(h: BotHarness, bareUrl: string, o: Options): Promise<Map<Key, Burst[]>> {
  const bursts = new Map<Key, Burst[]>();
  const urls: Record<App, string> = { harbormaster: h.eventsUrl, 'bare bolt': bareUrl };
  const timed = async (surface: Surface, app: App, bodies: string[]) => {
    const b = await burst(urls[app], SIGNING_SECRET, bodies);
    bursts.set(`${surface}/${app}`, [...(bursts.get(`${surface}/${app}`) ?? []), b]);
  };

  // Warm-up: JIT, Bolt's cached auth.test, the store. Cancel, not Confirm, so no promotion
  // takes a tag a round needs and no follow-up polls the API during the first round.
  const warmTexts = commandTexts(TAGS[0]);
  await burst(h.eventsUrl, SIGNING_SECRET, commandBodies(h, warmTexts, o.warmup));
  await h.settle();
  const warmPreview = latestPreview(h);
  await burst(h.eventsUrl, SIGNING_SECRET, clickBodies(h, warmPreview, CHANGE_ACTIONS.cancel, o.warmup));
  await h.settle();
  await burst(bareUrl, SIGNING_SECRET, commandBodies(h, warmTexts, o.warmup));
  await burst(bareUrl, SIGNING_SECRET, clickBodies(h, warmPreview, CHANGE_ACTIONS.confirm, o.warmup));

  // Rounds alternate which app goes first, so drift in the machine's load hits both alike. The bot
  // settles after each of its bursts: the bare app never shares the process with the bot's work.
  for (let round = 0; round < o.rounds; round++) {
    const texts = commandTexts(TAGS[round] ?? TAGS[0]);
    const harborFirst = round % 2 === 1;
    const bareCommands = () => timed('command', 'bare bolt', commandBodies(h, texts, o.n));
    if (!harborFirst) await bareCommands();
    await timed('command', 'harbormaster', commandBodies(h, texts, o.n));
    await h.settle();
    if (harborFirst) await bareCommands();

    const preview = latestPreview(h);
    const bareClicks = () =>
      timed('click', 'bare bolt', clickBodies(h, preview, CHANGE_ACTIONS.confirm, o.n));
    if (!harborFirst) await bareClicks();
    await timed('click', 'harbormaster', clickBodies(h, preview, CHANGE_ACTIONS.confirm, o.n));
    await h.settle();
    if (harborFirst) await bareClicks();
  }
  return bursts;
}

/** All bursts of one kind as one sample. */
function pooled(bursts: readonly Burst[]): Burst {
  const failures = new Map<string, number>();
  for (const b of bursts) for (const [k, v] of b.failures) failures.set(k, (failures.get(k) ?? 0) + v);
  return { latenciesMs: bursts.flatMap((b) => b.latenciesMs).sort((a, b) => a - b), failures };
}

function report(bursts: Map<Key, Burst[]>, o: Options, notes: string[]): boolean {
  const ms = (v: number) => v.toFixed(1);
  const rows: string[][] = [
    ['surface', 'app', 'n', 'p50 ms', 'p99 ms', 'max ms', 'not 200', 'p50 ratio', 'p99 ratio'],
  ];
  let failed = false;
  const perRound: string[] = [];
  for (const surface of ['command', 'click'] as const) {
    const base = summarize(pooled(bursts.get(`${surface}/bare bolt`) ?? []));
    for (const app of ['bare bolt', 'harbormaster'] as const) {
      const all = pooled(bursts.get(`${surface}/${app}`) ?? []);
      const s = summarize(all);
      const ratio = (a: number, b: number) => (app === 'bare bolt' ? '' : `${(a / b).toFixed(2)}x`);
      rows.push([
        surface,
        app,
        String(s.count),
        ms(s.p50),
        ms(s.p99),
        ms(s.max),
        String(s.failed),
        ratio(s.p50, base.p50),
        ratio(s.p99, base.p99),
      ]);
      const rounds = (bursts.get(`${surface}/${app}`) ?? []).map((b) => ms(summarize(b).p50));
      perRound.push(`${surface} ${app}: ${rounds.join(' / ')}`);
      if (all.failures.size > 0) {
        failed = true;
        notes.push(`${app} ${surface}: ${failureText(all)}`);
      }
    }
  }
  console.log(
    `Ack latency: ${o.rounds} rounds of ${o.n} concurrent signed requests per row (pooled), each on its ` +
      `own connection, timed from send to the receiver's answer.\nThe hosting API answers every /api/** ` +
      `call ${o.latencyMs} ms late. Commands: half "/harbor ${commandTexts('X')[0]}", half ` +
      `"/harbor ${commandTexts('<tag>')[1]}" (a new tag each round).\nClicks: Confirm on one pending ` +
      `preview per round. Ratio = harbormaster / bare bolt (no-op listeners, same process).\n`,
  );
  console.log(table(rows, 2));
  console.log(`\np50 ms by round: ${perRound.join('; ')}`);
  if (notes.length > 0) console.log(`\n${notes.join('\n')}`);
  return !failed;
}

async function main(): Promise<number> {
  const o = readOptions();
  const h = await startBotHarness();
  // Set after start-up, so only request work (never the bot's start) waits on the slow API.
  h.sim.setFaults([{ path: '/api/**', latencyMs: o.latencyMs }]);
  const bare = await startBareBolt({
    signingSecret: SIGNING_SECRET,
    token: TEST_BOT.token,
    slackApiUrl: h.slack.apiUrl,
  });
  const notes: string[] = [];
  let bursts: Map<Key, Burst[]>;
  try {
    h.sim.clearRequests();
    const posts = h.slack.callsTo('chat.postMessage').length;
    bursts = await measure(h, bare.eventsUrl, o);
    notes.push(
      `harbormaster did its work after the acks: ${h.sim.requests.length} hosting-API calls, ` +
        `${h.slack.callsTo('chat.postMessage').length - posts} chat.postMessage, ` +
        `${h.sim.countRequests('POST', '/api/container/v1/imagepromotions')} promotion(s) applied ` +
        `(one per round; the other clicks were told it was already done)`,
    );
    notes.push(
      `harbormaster's own timer from listener entry to ack (harbor_ack_seconds), mean: ${await listenerAckMeans(h)}`,
    );
  } finally {
    // An applied promotion's follow-up may still be polling the slow API: wait a bounded time.
    const stopped = Promise.all([bare.stop(), h.stop()]);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), STOP_WAIT_MS);
    });
    if ((await Promise.race([stopped, late])) === 'late')
      notes.push(`shutdown did not finish within ${STOP_WAIT_MS / 1000} s; exiting anyway`);
    clearTimeout(timer);
  }
  return report(bursts, o, notes) ? 0 : 1;
}

const watchdog = setTimeout(() => {
  console.error(`slack-ack: gave up after ${HARD_LIMIT_MS / 1000} s`);
  process.exit(2);
}, HARD_LIMIT_MS);
watchdog.unref();
// Exit explicitly: a follow-up on the slow API may still hold a timer after shutdown.
process.exit(await main());
