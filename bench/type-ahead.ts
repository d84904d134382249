/**
 * Type-ahead against a slow API (issue 30.3): `--requests` block_suggestion
 * requests in flight at once for one list while the hosting API takes
 * `--api-ms` to list it (the whole bot, the simulator and the Slack stand-in
 * in this process, all on real time). Prints the list reads that reached the API and the
 * answer times Slack saw, then the same again within the cache's seconds.
 * Run: npx tsx bench/type-ahead.ts [--requests 300] [--api-ms 2000]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { suggestActionId } from '../src/slack/ids.js';
import { blockSuggestionPayload, interactionBody } from '../src/workspace/payloads.js';
import { postSigned } from '../src/workspace/signing.js';
import { SIGNING_SECRET, startBotHarness } from '../test/e2e/slack/bot-harness.js';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '300' }, 'api-ms': { type: 'string', default: '2000' } },
});
const requests = Number(values.requests);
const apiMs = Number(values['api-ms']);
const PATH = '/api/formation/v1/environments/dev/vessels';

const h = await startBotHarness();
await h.slash('logs dev');
const viewId = h.slack.calls.filter((c) => c.method === 'views.open').at(-1)?.response as {
  view?: { id?: string };
};
const opened = h.slack.view(viewId?.view?.id ?? '');
if (!opened) throw new Error('no form');
const view = opened;
h.sim.setFaults([{ method: 'GET', path: PATH, latencyMs: apiMs }]);
const reads = () => h.sim.requests.filter((r) => r.method === 'GET' && r.path === PATH).length;

async function burst(label: string): Promise<void> {
  const before = reads();
  const started = performance.now();
  const times: number[] = [];
  let empty = 0;
  const all = Array.from({ length: requests }, (_, i) =>
    postSigned(
      h.eventsUrl,
      SIGNING_SECRET,
      interactionBody(
        blockSuggestionPayload({
          view,
          actionId: suggestActionId('vessels', 'dev'),
          query: i % 2 ? 'lobby' : 'l',
        }),
      ),
    ).then((res) => {
      times.push(performance.now() - started);
      if ((res.body as { options?: unknown[] }).options?.length === 0) empty += 1;
    }),
  );
  await Promise.all(all);
  times.sort((a, b) => a - b);
  const pct = (p: number) =>
    (times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0).toFixed(0);
  console.log(
    `${label}: ${requests} requests, ${reads() - before} list reads at the API; answered p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms (API ${apiMs} ms); ${empty} with no options`,
  );
}

await burst('cold');
await burst('within the cache');
await h.stop();
