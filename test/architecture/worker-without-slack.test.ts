/**
 * A worker (HARBOR_ROLE=worker) is the same binary with Slack off: what it
 * loads reaches no file of slack/ (nor the local workspace), its probes and
 * metrics included (probes/ is shared by both kinds of replica). Were one to
 * creep in, the worker would load Bolt for nothing, and the probes' code
 * would have two homes.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { type ImportGraph, importGraph } from './import-graph.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every file `start` reaches through its imports (itself included). */
function reached(graph: ImportGraph, start: string): Set<string> {
  const seen = new Set<string>();
  const next = [start];
  for (let file = next.pop(); file !== undefined; file = next.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    next.push(...(graph.get(file) ?? []));
  }
  return seen;
}

it('the worker reaches no slack/ or workspace/ file, and does reach the shared probes', () => {
  const files = reached(importGraph(SRC), 'startup/start-worker.ts');
  // The walk sees what it is meant to: the core, the probes, the store.
  expect([...files]).toEqual(
    expect.arrayContaining(['startup/core.ts', 'probes/health.ts', 'probes/ops-server.ts', 'store/index.ts']),
  );
  expect([...files].filter((f) => /^(slack|workspace)\//.test(f)).sort()).toEqual([]);
});
