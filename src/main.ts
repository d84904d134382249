/**
 * Start-up only: read the config, report every problem at once, start the
 * bot (in local mode with its local workspace), stop it cleanly on a signal.
 * Nothing else lives here.
 */
import { configSecrets, missingSlackSettings, readConfig } from './config/config.js';
import { createJsonLogger } from './runtime/logger.js';
import { describeStartFailure } from './startup/describe-start-failure.js';
import { startLocalBot } from './startup/local-mode.js';
import { startBot } from './startup/start-bot.js';

const result = readConfig(process.env, { local: process.argv.slice(2).includes('--local') });
if (!result.ok) {
  process.stderr.write(
    `Harbormaster cannot start; fix these settings:\n${result.problems.map((p) => `  - ${p}`).join('\n')}\n`,
  );
  process.exit(1);
}
const config = result.config;
const secrets = configSecrets(config);
const logger = createJsonLogger({ level: config.logLevel, secrets: () => secrets });

const missing = config.local ? [] : missingSlackSettings(config.slack);
if (missing.length > 0) {
  process.stderr.write(
    `Harbormaster needs Slack credentials to run. Missing:\n${missing.map((m) => `  - ${m}`).join('\n')}\nSee README.md, "Set-up", for the one-step app creation from manifest.yml.\n`,
  );
  process.exit(1);
}

let running: Awaited<ReturnType<typeof startBot>>;
let stopAll: () => Promise<void>;
try {
  if (config.local) {
    const local = await startLocalBot(config, logger, { processMetrics: true });
    // The workspace's own token and secret are secrets too.
    secrets.push(...configSecrets(local.config));
    running = local.running;
    stopAll = local.stop;
    process.stdout.write(`Harbormaster local workspace: ${local.url}\n`);
  } else {
    running = await startBot(config, logger, { processMetrics: true });
    stopAll = running.stop;
  }
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
  logger.info(`received ${signal}, finishing work in progress and stopping`);
  await stopAll();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
