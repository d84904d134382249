/**
 * The house rule: the simulator shares only the API model with the client
 * (resource schemas, name rules, the permission model), so it cannot drift
 * into agreeing with the client by sharing its code.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from '@jest/globals';

const SRC = resolve('src');
const SIMULATOR = join(SRC, 'simulator');

/** What the simulator may import from outside src/simulator (paths under src/). */
const ALLOWED = new Set([
  'api-shapes/resources.ts',
  'api-shapes/armada-resources.ts',
  'api-shapes/replica-rules.ts',
  'api-shapes/names.ts',
  'api-shapes/permission-schema.ts',
  'config/simulator-options.ts',
  'runtime/clock.ts',
  'runtime/logger.ts',
]);

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? sources(join(dir, e.name)) : [join(dir, e.name)])),
  );
  return nested.flat().filter((f) => f.endsWith('.ts'));
}

it('imports nothing of the client but the API model', async () => {
  const outside = new Set<string>();
  for (const file of await sources(SIMULATOR)) {
    const text = await readFile(file, 'utf8');
    for (const m of text.matchAll(/from '(\.[^']+)\.js'/g)) {
      const target = resolve(dirname(file), `${m[1]}.ts`);
      if (!target.startsWith(`${SIMULATOR}/`)) outside.add(relative(SRC, target));
    }
  }
  expect([...outside].filter((p) => !ALLOWED.has(p)).sort()).toEqual([]);
  expect(outside.has('api-shapes/permission-schema.ts')).toBe(true);
});
