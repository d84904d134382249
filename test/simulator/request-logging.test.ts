/**
 * The simulator logs each API request at debug, not info: in local mode a
 * channel watching dev polls every few seconds, and those lines would bury
 * the start-up lines a newcomer must read (the URL to open, the curl lines).
 */
import { afterEach, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/runtime/clock.js';
import { createJsonLogger } from '../../src/runtime/logger.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.stop();
});

it('logs API requests at debug, so polling does not bury what a newcomer reads at info', async () => {
  // The request line is written when the response closes: the test waits on that line, not on time.
  let logged!: (record: { level: string; msg: string }) => void;
  const requestLine = new Promise<{ level: string; msg: string }>((resolve) => {
    logged = resolve;
  });
  const logger = createJsonLogger({
    level: 'debug',
    write: (line) => {
      const record = JSON.parse(line) as { level: string; msg: string };
      if (record.msg === 'request') logged(record);
    },
  });
  sim = await startSimulator({ clock: new ManualClock(), logger });
  await (await fetch(`${sim.url}/api/core/v1/environments`)).arrayBuffer();
  expect(await requestLine).toMatchObject({ level: 'debug', msg: 'request' });
});
