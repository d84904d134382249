/**
 * `npm run simulator`: starts the simulator and prints, each on its own line,
 * GAMEFABRIC_URL=<base url> and GAMEFABRIC_TOKEN=<demo token> on stdout (so a
 * user can paste them into the bot's environment); logs go to stderr.
 */
import { readFile } from 'node:fs/promises';
import { readSimulatorOptions, SIMULATOR_USAGE } from '../config/simulator-options.js';
import { createJsonLogger } from '../runtime/logger.js';
import { parseSimulatorData, type SimulatorData, startSimulator } from './index.js';

async function loadDataFile(path: string): Promise<SimulatorData> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`--data: cannot read ${path}: ${(err as Error).message}`);
  }
  try {
    return parseSimulatorData(JSON.parse(text));
  } catch (err) {
    throw new Error(`--data: ${path}: ${(err as Error).message}`);
  }
}

async function main(): Promise<void> {
  const options = readSimulatorOptions(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(SIMULATOR_USAGE);
    return;
  }
  const logger = createJsonLogger({ base: { component: 'simulator' } });
  const data = options.dataFile ? await loadDataFile(options.dataFile) : undefined;
  const sim = await startSimulator({
    port: options.port,
    logger,
    ...(options.logLinesPerSecond !== undefined ? { logLinesPerSecond: options.logLinesPerSecond } : {}),
    ...(options.stepMs !== undefined ? { stepMs: options.stepMs } : {}),
    realShapes: options.realShapes,
    ...(options.fleetCounts !== undefined ? { fleetCounts: options.fleetCounts } : {}),
    serverStates: options.serverStates,
    ignoreOverrideImages: options.ignoreOverrideImages,
    logReplay: options.logReplay,
    ...(data ? { data } : {}),
  });
  process.stdout.write(`GAMEFABRIC_URL=${sim.url}\nGAMEFABRIC_TOKEN=${sim.token}\n`);
  logger.info('simulator listening', { url: sim.url, data: options.dataFile ?? 'demo' });

  const shutdown = (signal: string) => {
    logger.info('simulator stopping', { signal });
    sim.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
