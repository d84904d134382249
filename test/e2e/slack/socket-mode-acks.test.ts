/**
 * Issue 40: in Socket Mode each envelope is acked before Bolt's listener
 * chain runs, as the HTTP path does: the ack is decided from the envelope
 * itself (listeners/ack-first.ts), sent, and only then does the chain run,
 * with an ack that only checks it is not asked for a different answer. The
 * bot is started as main.ts starts it, with an app-level token, connected
 * over a loopback WebSocket to the Slack stand-in, which sends the envelopes
 * and times their acks. A global middleware the test holds stands for a
 * chain that is slow: the acks still arrive, in order. Field errors still
 * ride on a submission's ack, the backlog's bound still answers "busy",
 * and a malformed envelope is still acked and refused.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { createMemoryLogger } from '../../../src/runtime/logger.js';
import { demoData, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { type RunningBot, startBot } from '../../../src/startup/start-bot.js';
import { TEST_BOT, TEST_CHANNEL } from '../../../src/workspace/identity.js';
import {
  blockActionsPayload,
  slashCommandFields,
  viewSubmissionPayload,
} from '../../../src/workspace/payloads.js';
import { type SlackStandIn, startSlackStandIn } from '../../../src/workspace/stand-in.js';
import { ALICE, e2eConfig } from './bot-harness.js';
import { answers } from './harness-extras.js';

const APP_TOKEN = 'xapp-1-A0HARBOR-1-socket-acks';
const BUSY = /busy, try again in a few seconds/;

interface World {
  sim: Simulator;
  slack: SlackStandIn;
  bot: RunningBot;
  logs: ReturnType<typeof createMemoryLogger>;
  stop(): Promise<void>;
}

let world: World | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

async function startWorld(o: { simClock?: ManualClock; workConcurrency?: number; queueLimit?: number } = {}) {
  const data = demoData();
  data.branches.staging = [];
  const sim = await startSimulator({
    port: 0,
    stepMs: 5,
    terminationMs: 5,
    data,
    ...(o.simClock ? { clock: o.simClock } : {}),
  });
  const slack = await startSlackStandIn({ token: TEST_BOT.token });
  const dataDir = await mkdtemp(join(tmpdir(), 'harbor-socket-acks-'));
  const config = await e2eConfig({ slackApiUrl: slack.apiUrl, sim, dataDir, appToken: APP_TOKEN });
  const logs = createMemoryLogger();
  const bot = await startBot(config, logs, {
    clientOptions: { retryConfig: { retries: 0 } },
    ...(o.workConcurrency ? { workConcurrency: o.workConcurrency } : {}),
    ...(o.queueLimit !== undefined ? { queueLimit: o.queueLimit } : {}),
  });
  await slack.socketMode.waitForConnections(1, APP_TOKEN);
  const w: World = {
    sim,
    slack,
    bot,
    logs,
    stop: async () => {
      await bot.stop();
      await slack.stop();
      await sim.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  world = w;
  return w;
}

function command(w: World, text: string) {
  return w.slack.socketMode.deliver(
    'slash_commands',
    slashCommandFields({
      text,
      user_id: ALICE.id,
      user_name: ALICE.name,
      response_url: w.slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id }),
      trigger_id: w.slack.triggerId(),
    }),
    { appToken: APP_TOKEN },
  );
}

/**
 * Holds Bolt's chain (a global middleware, after authorization, before every
 * listener) until `release`; `entered` counts the envelopes that reached it.
 */
function holdTheChain(bot: RunningBot) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const seen = { entered: 0 };
  bot.bot.app.use(async ({ next }) => {
    seen.entered += 1;
    await held;
    await next();
  });
  return { release, seen };
}

it('acks an envelope while the listener chain behind it is held', async () => {
  const w = await startWorld();
  const { release, seen } = holdTheChain(w.bot);
  const ack = await command(w, 'help');
  // The chain has not got past the held middleware: no listener ran, yet Slack has its ack.
  expect(ack.payload).toEqual({});
  expect(w.slack.callsTo('response_url')).toEqual([]);
  release();
  await w.slack.waitFor((call) => call.method === 'response_url', { timeoutMs: 10_000 });
  await w.bot.bot.idle();
  expect(seen.entered).toBe(1);
  // The listener's own ack, a no-op, said the same: nothing logged.
  expect(w.logs.lines.filter((l) => l.includes('"level":"error"'))).toEqual([]);
});

it('acks a burst in the order it was sent, before any of its chains runs', async () => {
  const w = await startWorld();
  const { release } = holdTheChain(w.bot);
  const acks = await Promise.all(Array.from({ length: 40 }, () => command(w, 'help')));
  const sent = acks.map((a) => Number(a.envelopeId.replace('env-', '')));
  const arrived = w.slack.socketMode.acks.map((a) => Number(a.envelopeId.replace('env-', '')));
  expect(arrived).toEqual([...sent].sort((a, b) => a - b));
  release();
  await w.bot.bot.idle();
});

it("carries a submission's field errors on its ack, decided before the chain", async () => {
  const w = await startWorld();
  await command(w, 'formation add dev lobby');
  await w.bot.bot.idle();
  const opened = w.slack.callsTo('views.open').at(-1)?.response.view as { id?: string } | undefined;
  const view = w.slack.view(opened?.id ?? '');
  if (!view) throw new Error('formation add opened no form');
  const { release } = holdTheChain(w.bot);
  const ack = await w.slack.socketMode.deliver(
    'interactive',
    viewSubmissionPayload({ view, values: answers(view, { vessel: 'Lobby_3!' }), user: ALICE }),
    { appToken: APP_TOKEN },
  );
  const payload = ack.payload as { response_action?: string; errors?: Record<string, string> };
  expect(payload.response_action).toBe('errors');
  expect(Object.keys(payload.errors ?? {}).sort()).toEqual(['region', 'vessel']);
  release();
  await w.bot.bot.idle();
  expect(w.logs.lines.filter((l) => l.includes('"level":"error"'))).toEqual([]);
});

it('answers "busy" past the backlog: in the ack for a command, by a note for a click', async () => {
  const simClock = new ManualClock(Date.now());
  const w = await startWorld({ simClock, workConcurrency: 1, queueLimit: 1 });
  try {
    await command(w, 'promote game-server:1.2.0 from dev to staging');
    await w.bot.bot.idle();
    const posted = w.slack.callsTo('chat.postMessage').at(-1);
    const preview = w.slack.message(
      TEST_CHANNEL.id,
      (posted?.response as { ts?: string } | undefined)?.ts ?? '',
    );
    if (!preview) throw new Error('no preview');
    w.sim.setFaults([{ method: 'GET', path: '/api/**', latencyMs: 60_000 }]);
    expect((await command(w, 'vessels dev')).payload).toEqual({});
    await simClock.whenSleeping();
    expect((await command(w, 'vessels dev')).payload).toEqual({});

    const shed = await command(w, 'vessels dev');
    expect(JSON.stringify(shed.payload)).toMatch(BUSY);

    const note = w.slack.waitFor(
      (call) => call.method === 'response_url' && BUSY.test(JSON.stringify(call.body)),
      { timeoutMs: 10_000 },
    );
    const click = await w.slack.socketMode.deliver(
      'interactive',
      blockActionsPayload({
        actionId: CHANGE_ACTIONS.cancel,
        user: ALICE,
        channel: TEST_CHANNEL,
        message: preview,
        responseUrl: w.slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id, messageTs: preview.ts }),
        triggerId: w.slack.triggerId(),
      }),
      { appToken: APP_TOKEN },
    );
    expect(click.payload).toEqual({});
    await note;
    expect(w.bot.bot.inFlight().filter((name) => name.endsWith(' work'))).toEqual([
      'command work',
      'command work',
    ]);
  } finally {
    w.sim.clearFaults();
    await simClock.advance(60_000);
    await w.bot.bot.idle();
  }
});

it('still acks and refuses a malformed envelope', async () => {
  const w = await startWorld();
  const { user_id: _dropped, ...withoutUser } = slashCommandFields({ text: 'help' });
  const ack = await w.slack.socketMode.deliver('slash_commands', withoutUser, { appToken: APP_TOKEN });
  expect(ack.payload).toEqual({});
  expect(w.logs.lines.join('\n')).toMatch(/refused a malformed Socket Mode envelope.*user_id is missing/);
});
