/**
 * Runs every benchmark in bench/ one after another and prints their figures.
 * Each benchmark is its own process so one's memory does not skew another's.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const benches = readdirSync(here).filter((f) => f.endsWith('.ts') && f !== 'run-all.ts');
let failed = 0;
for (const file of benches.sort()) {
  process.stdout.write(`\n=== ${file} ===\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, file), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  if (run.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
