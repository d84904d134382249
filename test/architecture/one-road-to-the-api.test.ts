/**
 * One road from Slack to the hosting API (issue 17, point 3; issue 25, point 5):
 * `slack/` reads, fills forms and changes things only through `changes/`
 * (reads.ts, form-queries.ts, the engine), which carry authorization, auditing
 * and error translation. The API's shapes and naming rules, which do no I/O,
 * live in `api-shapes/`, a room both sides import; so `slack/` imports nothing
 * of `gamefabric/` at all.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph } from './import-graph.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');

it('nothing in slack/ imports gamefabric/ (the API client, its errors, anything of it)', () => {
  const graph = importGraph(SRC);
  // The graph's files are relative to src/.
  const fromSlack = [...graph]
    .filter(([from]) => from.startsWith('slack/'))
    .flatMap(([from, tos]) => tos.map((to) => [from, to] as const));
  // The check sees what it is meant to: slack/ does import changes/ and the shapes.
  expect(fromSlack.some(([, to]) => to === 'changes/reads.ts')).toBe(true);
  expect(fromSlack.some(([, to]) => to.startsWith('api-shapes/'))).toBe(true);
  const leaks = fromSlack.filter(([, to]) => to.startsWith('gamefabric/'));
  expect(leaks).toEqual([]);
});

it('api-shapes/ imports nothing of ours: it is the vocabulary, not a client', () => {
  const graph = importGraph(SRC);
  const outside = [...graph]
    .filter(([from]) => from.startsWith('api-shapes/'))
    .flatMap(([from, tos]) =>
      tos.filter((to) => !to.startsWith('api-shapes/')).map((to) => `${from} -> ${to}`),
    );
  expect(outside).toEqual([]);
});
