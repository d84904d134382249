/**
 * Overload: a flood of slash commands while the hosting API answers every
 * read 2.5 s late, into the whole bot (simulator and Slack stand-in in the
 * same process) under a small heap. Prints the heap after each slice of the
 * flood and how many commands were answered (taken and worked) and shed
 * (answered "busy" in the ack). Memory must stay flat: the backlog behind
 * the acks is bounded, so the flood's length does not show in the heap.
 * Run: npx tsx bench/overload.ts [--commands 2000] [--concurrency 25] [--heap-mb 64]
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { postSigned } from '../src/workspace/signing.js';
import { SIGNING_SECRET, slashBody, startBotHarness } from '../test/e2e/slack/bot-harness.js';

const BUSY = /busy, try again/;
const SLICES = 8;

const { values } = parseArgs({
  options: {
    commands: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '25' },
    'heap-mb': { type: 'string', default: '64' },
    child: { type: 'boolean', default: false },
  },
});

if (!values.child) {
  // The heap limit is a start-up flag: run again under it.
  const run = spawnSync(
    process.execPath,
    [
      `--max-old-space-size=${values['heap-mb']}`,
      '--expose-gc',
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      '--child',
      '--commands',
      values.commands,
      '--concurrency',
      values.concurrency,
    ],
    { stdio: 'inherit' },
  );
  process.exit(run.status ?? 1);
}

const total = Number(values.commands);
const concurrency = Number(values.concurrency);
const h = await startBotHarness();
h.sim.setFaults([{ method: 'GET', path: '/api/**', latencyMs: 2500 }]);
const heapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
let sent = 0;
let shed = 0;
let taken = 0;
let failed = 0;
const started = Date.now();
console.log(`heap at start: ${heapMb().toFixed(1)} MB (limit ${values['heap-mb']} MB)`);
for (let slice = 1; slice <= SLICES; slice++) {
  const until = Math.round((total * slice) / SLICES);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < until) {
        sent++;
        const res = await postSigned(h.eventsUrl, SIGNING_SECRET, slashBody(h.slack, 'vessels dev'));
        if (res.status !== 200) failed++;
        else if (BUSY.test(res.text)) shed++;
        else taken++;
      }
    }),
  );
  console.log(
    `after ${String(sent).padStart(6)} commands: heap ${heapMb().toFixed(1)} MB, work behind acks ${h.running.bot.inFlight().length}, shed so far ${shed}`,
  );
}
h.sim.clearFaults();
await h.settle();
console.log(
  `answered ${taken} (worked behind the ack), shed ${shed} ("busy" in the ack), failed ${failed}, in ${((Date.now() - started) / 1000).toFixed(1)} s; heap after draining ${heapMb().toFixed(1)} MB`,
);
await h.stop();
if (failed > 0) process.exit(1);
