/**
 * The process's work, once src/main.ts has set Node up: read the config, report every problem at once, start the
 * bot (in local mode with its local workspace), stop it cleanly on a signal.
 * Nothing else lives here.
 */
import { configSecrets, missingSlackSettings, readConfig } from '../config/config.js';
import { createJsonLogger } from '../runtime/logger.js';
import { describeStartFailure } from './describe-start-failure.js';
import { nodeVersionProblem } from './node-version.js';
import { deadlineIn, stopWithin } from './shutdown.js';
import { startBot } from './start-bot.js';

/** Seconds since this process started (the build before it, if any, prints its own time). */
function startupSeconds(): string {
  return process.uptime().toFixed(1);
}

/** Starts the bot as the command line and environment say; returns once it runs (or exits the process). */
export async function run(argv: readonly string[]): Promise<void> {
  // Before anything opens the embedded store: its addon crashes an unsupported Node instead of failing.
  const nodeProblem = nodeVersionProblem(process.versions.node);
  if (nodeProblem) {
    process.stderr.write(`${nodeProblem}\n`);
    process.exit(1);
  }

  // The environment is read by the config reader alone (its default); only the command line is ours to pass.
  const result = readConfig(undefined, { local: argv.includes('--local') });
  if (!result.ok) {
    process.stderr.write(
      `Harbormaster cannot start; fix these settings:\n${result.problems.map((p) => `  - ${p}`).join('\n')}\n`,
    );
    process.exit(1);
  }
  const config = result.config;
  const secrets = configSecrets(config);
  const logger = createJsonLogger({ level: config.logLevel, secrets: () => secrets });

  const missing = config.local || config.role === 'worker' ? [] : missingSlackSettings(config.slack);
  if (missing.length > 0) {
    process.stderr.write(
      `Harbormaster needs Slack credentials to run. Missing:\n${missing.map((m) => `  - ${m}`).join('\n')}\nSee README.md, "Set-up", for the one-step app creation from manifest.yml.\n`,
    );
    process.exit(1);
  }

  // Handlers first: a signal that arrives while starting stops the bot once it is up,
  // instead of killing the process half-started.
  let stopAll: (() => Promise<void>) | undefined;
  let running: { inFlight(): string[]; core: Awaited<ReturnType<typeof startBot>>['core'] } | undefined;
  let started: Promise<unknown> = Promise.resolve();
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`received ${signal}, finishing work in progress and stopping`, {
      deadlineMs: config.shutdownTimeoutMs,
    });
    await started;
    if (!stopAll) process.exit(0);
    const stop = stopAll;
    const outcome = await stopWithin(
      { stop, inFlight: () => running?.inFlight() ?? [] },
      deadlineIn(config.shutdownTimeoutMs),
    );
    if (outcome.kind === 'stopped') process.exit(0);
    if (outcome.kind === 'deadline') {
      logger.error(
        `work in progress did not finish within HARBOR_SHUTDOWN_TIMEOUT_MS (${config.shutdownTimeoutMs} ms); exiting without it`,
        { left: outcome.left },
      );
    } else {
      logger.error('stopping failed', { error: outcome.error, left: outcome.left });
    }
    process.exit(1);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    if (config.role === 'worker') {
      // Slack off: the lifecycle alone (startup/start-worker.ts); the bots draw what it does.
      const { startWorker } = await import('./start-worker.js');
      const starting = startWorker(config, logger, { processMetrics: true });
      started = starting.catch(() => undefined);
      const worker = await starting;
      running = { core: worker.core, inFlight: () => [] };
      stopAll = worker.stop;
    } else if (config.local) {
      // Loaded only in local mode: a production replica never pays for the local workspace (docs/memory.md).
      const { startLocalBot } = await import('./local-mode.js');
      const starting = startLocalBot(config, logger, { processMetrics: true });
      started = starting.catch(() => undefined);
      const local = await starting;
      // The workspace's own token and secret are secrets too.
      secrets.push(...configSecrets(local.config));
      running = local.running;
      stopAll = local.stop;
      process.stdout.write(`Harbormaster local workspace: ${local.url} (started in ${startupSeconds()} s)\n`);
    } else {
      const starting = startBot(config, logger, { processMetrics: true });
      started = starting.catch(() => undefined);
      const bot = await starting;
      running = bot;
      stopAll = bot.stop;
    }
  } catch (err) {
    process.stderr.write(`Harbormaster could not start: ${describeStartFailure(err, secrets)}\n`);
    process.exit(1);
  }
  logger.info(`Harbormaster started in ${startupSeconds()} s`, {
    replica: config.replicaId,
    store: running.core.store.kind,
    policy: running.core.policy.summary,
  });
}
