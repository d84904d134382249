/**
 * `armadas <env>` with 200 Armadas: the time from the query (list Armadas,
 * ArmadaSets and ImageUpdaters from the simulator over loopback, resolve
 * image tags) to the rendered Slack message, and whether the message keeps
 * Slack's limits. Run: npx tsx bench/armadas-list.ts [--armadas N] [--runs N]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Armada } from '../src/api-shapes/armada-resources.js';
import { queryArmadas } from '../src/changes/armada-queries.js';
import { createGameFabricClient } from '../src/gamefabric/client.js';
import { demoData, internalImageName, startSimulator } from '../src/simulator/index.js';
import { messageProblems } from '../src/slack/limits.js';
import { renderArmadas } from '../src/slack/render/armadas.js';

const { values } = parseArgs({
  options: { armadas: { type: 'string', default: '200' }, runs: { type: 'string', default: '5' } },
});
const count = Number(values.armadas);
const runs = Number(values.runs);

function armada(i: number): Armada {
  return {
    apiVersion: 'armada/v1',
    kind: 'Armada',
    metadata: { name: `fleet-${String(i).padStart(4, '0')}`, environment: 'dev' },
    spec: {
      region: i % 2 === 0 ? 'eu-central' : 'us-west',
      distribution: [
        { name: 'baremetal', minReplicas: 2, bufferSize: 2, maxReplicas: 10 },
        { name: 'cloud', minReplicas: 0, bufferSize: 1, maxReplicas: 5 },
      ],
      template: {
        spec: {
          containers: [
            { name: 'game-server', branch: 'dev', image: internalImageName('dev', 'game-server', '1.2.0') },
          ],
        },
      },
    },
  };
}

const data = demoData();
const dev = data.environments.dev ?? {};
dev.armadas = [...(dev.armadas ?? []), ...Array.from({ length: count }, (_, i) => armada(i))];
const sim = await startSimulator({ data, logLinesPerSecond: 0 });
const client = createGameFabricClient({ baseUrl: sim.url, auth: { token: sim.token } });
try {
  const times: number[] = [];
  let last: ReturnType<typeof renderArmadas> | undefined;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    last = renderArmadas(await queryArmadas(client, 'dev'));
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  const problems = last ? messageProblems(last) : ['no message'];
  const size = last ? JSON.stringify(last.blocks).length : 0;
  console.log(`armadas dev: ${count} generated armadas plus the demo data, ${runs} runs`);
  console.log(`  query + render: median ${median.toFixed(1)} ms, max ${(times.at(-1) ?? 0).toFixed(1)} ms`);
  console.log(`  message: ${last?.blocks.length ?? 0} blocks, ${size} characters of blocks`);
  console.log(`  summary: ${last?.text ?? ''}`);
  console.log(`  Slack limits: ${problems.length === 0 ? 'kept' : problems.join('; ')}`);
  if (problems.length > 0) process.exitCode = 1;
} finally {
  await sim.stop();
}
