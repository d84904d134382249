/**
 * Start-up only: read the config, report every problem at once, start the
 * bot, stop it cleanly on a signal. Nothing else lives here.
 */
import { configSecrets, missingSlackSettings, readConfig } from './config/config.js';
import { createJsonLogger } from './runtime/logger.js';
import { describeStartFailure } from './startup/describe-start-failure.js';
import { deadlineIn, stopWithin } from './startup/shutdown.js';
import { startBot } from './startup/start-bot.js';

const result = readConfig();
if (!result.ok) {
  process.stderr.write(
    `Harbormaster cannot start; fix these settings:\n${result.problems.map((p) => `  - ${p}`).join('\n')}\n`,
  );
  process.exit(1);
}
const config = result.config;
const secrets = configSecrets(config);
const logger = createJsonLogger({ level: config.logLevel, secrets: () => secrets });

const missing = missingSlackSettings(config.slack);
if (missing.length > 0) {
  process.stderr.write(
    `Harbormaster needs Slack credentials to run. Missing:\n${missing.map((m) => `  - ${m}`).join('\n')}\nSee README.md, "Set-up", for the one-step app creation from manifest.yml.\n`,
  );
  process.exit(1);
}

let running: Awaited<ReturnType<typeof startBot>>;
try {
  running = await startBot(config, logger, { processMetrics: true });
} catch (err) {
  process.stderr.write(`Harbormaster could not start: ${describeStartFailure(err, secrets)}\n`);
  process.exit(1);
}
logger.info('Harbormaster started', {
  replica: config.replicaId,
  store: running.core.store.kind,
  policy: running.core.policy.summary,
});

const shutdown = async (signal: string) => {
  logger.info(`received ${signal}, finishing work in progress and stopping`, {
    deadlineMs: config.shutdownTimeoutMs,
  });
  const outcome = await stopWithin(running, deadlineIn(config.shutdownTimeoutMs));
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
