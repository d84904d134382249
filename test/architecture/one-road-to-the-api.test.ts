/**
 * One road from Slack to the hosting API (issue 17, point 3): `slack/` reads,
 * fills forms and changes things only through `changes/` (reads.ts,
 * form-queries.ts, the engine), which carry authorization, auditing and error
 * translation. It may share the API's shapes (resources.ts, and the Armada
 * shapes in armada-resources.ts, which import only resources.ts and zod) and
 * naming rules (names.ts), which do no I/O, but never the client or its errors.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { importGraph } from './import-graph.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');
const SHAPES_ONLY = new Set([
  'gamefabric/resources.ts',
  'gamefabric/armada-resources.ts',
  'gamefabric/names.ts',
]);

it('nothing in slack/ imports the API client, its errors or anything else of gamefabric/ that does I/O', () => {
  const graph = importGraph(SRC);
  // The graph's files are relative to src/.
  const fromSlack = [...graph]
    .filter(([from]) => from.startsWith('slack/'))
    .flatMap(([from, tos]) => tos.map((to) => [from, to] as const));
  // The check sees what it is meant to: slack/ does import changes/ and the shapes.
  expect(fromSlack.some(([, to]) => to === 'changes/reads.ts')).toBe(true);
  expect(fromSlack.some(([, to]) => to === 'gamefabric/resources.ts')).toBe(true);
  const leaks = fromSlack.filter(([, to]) => to.startsWith('gamefabric/') && !SHAPES_ONLY.has(to));
  expect(leaks).toEqual([]);
});
