/**
 * Harbormaster for the ack benchmark, in a process of its own, started as
 * main.ts starts it (startBot) against the stand-ins' Slack and hosting API.
 * Its log is counted, not printed: the benchmark reports the errors.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJsonLogger } from '../../src/runtime/logger.js';
import type { Simulator } from '../../src/simulator/index.js';
import { type RunningBot, startBot } from '../../src/startup/start-bot.js';
import { e2eConfig } from '../../test/e2e/slack/bot-harness.js';
import { gcPausesSinceLast } from './gc-pauses.js';
import { PROFILE_DIR, serve } from './ipc.js';

let running: RunningBot | undefined;
let session: Session | undefined;
let dataDir: string | undefined;
const errors: string[] = [];
const logger = createJsonLogger({
  level: 'warn',
  write: (line) => {
    const record = JSON.parse(line) as { level: string; msg: string };
    if (record.level === 'error') errors.push(line.slice(0, 400));
  },
});

/** Mean of the bot's ack histogram per kind, in ms: the part of the latency inside its listener. */
async function listenerAckMeans(bot: RunningBot): Promise<Record<string, number>> {
  const { values } = await bot.metrics.ackSeconds.get();
  const total = (suffix: string, kind: string) =>
    values.find((v) => v.metricName === `harbor_ack_seconds_${suffix}` && v.labels.kind === kind)?.value ?? 0;
  const means: Record<string, number> = {};
  for (const kind of ['command', 'click', 'submit'])
    means[kind] = (1000 * total('sum', kind)) / total('count', kind);
  return means;
}

serve({
  /** With `appToken` the bot runs in Socket Mode, connected to the stand-in once this resolves. */
  start: async (o: { slackApiUrl: string; simUrl: string; simToken: string; appToken?: string }) => {
    dataDir = await mkdtemp(join(tmpdir(), 'harbor-bench-'));
    const sim = { url: o.simUrl, token: o.simToken } as Simulator;
    const config = await e2eConfig({
      slackApiUrl: o.slackApiUrl,
      sim,
      dataDir,
      ...(o.appToken ? { appToken: o.appToken } : {}),
    });
    running = await startBot(config, logger, { clientOptions: { retryConfig: { retries: 0 } } });
    return o.appToken ? {} : { eventsUrl: `http://127.0.0.1:${running.port}/slack/events` };
  },
  /** Resolves once the work behind every ack so far, and the follow-ups it started, have finished. */
  idle: async () => {
    await running?.bot.idle();
    await running?.bot.followUpsDone();
  },
  /** BENCH_BURST_PROF: a V8 CPU profile of one burst alone (its acks and the chains behind them), not the whole run. */
  burstProfile: async (o: { start: boolean; label?: string }) => {
    if (o.start) {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      return;
    }
    if (!session) return;
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    session = undefined;
    await mkdir(PROFILE_DIR, { recursive: true });
    await writeFile(join(PROFILE_DIR, `burst-${o.label ?? 'x'}.cpuprofile`), JSON.stringify(profile));
  },
  /** GC pauses since the last call (the benchmark reads them around each measured burst). */
  gcPauses: () => gcPausesSinceLast(),
  report: async () => {
    if (!running) throw new Error('not started');
    const { values } = await running.metrics.errors.get();
    return {
      ackMeansMs: await listenerAckMeans(running),
      errorsCounted: values.reduce((sum, v) => sum + v.value, 0),
      errorsWhere: values.filter((v) => v.value > 0).map((v) => `${String(v.labels.where)}: ${v.value}`),
      errorLines: errors,
    };
  },
  stop: async () => {
    await running?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  },
});
