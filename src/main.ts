/**
 * Start-up only: read the config, report every problem at once, build the
 * parts and start. Nothing else lives here.
 */
import { configSecrets, missingSlackSettings, readConfig } from './config/config.js';
import { createJsonLogger } from './runtime/logger.js';
import { startCore } from './startup/core.js';

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

const core = await startCore(config, logger, { resolveGroup: async () => [] });
logger.info('Harbormaster core started', { replica: config.replicaId, store: core.store.kind });

const shutdown = async (signal: string) => {
  logger.info(`received ${signal}, stopping`);
  await core.stop();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));
