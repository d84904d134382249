/**
 * The start path's build: `npm run build` only when an input changed since
 * the last build, so a second `npm start` goes straight to the bot. Inputs
 * are fingerprinted by path, size and modification time (a deleted or added
 * file counts too); the fingerprint is kept in dist/, so removing dist/
 * forces a build (scripts/build.mjs: an esbuild bundle, about a second).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const started = performance.now();
const STAMP = 'dist/.build-fingerprint';
const INPUT_DIRS = ['src', 'scripts/parts'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/build-plugins.mjs'];

/** Every file under `dir`, recursively. */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

function fingerprint() {
  const hash = createHash('sha256');
  const files = [...INPUT_DIRS.flatMap(filesUnder), ...INPUT_FILES.filter((f) => existsSync(f))].sort();
  for (const file of files) {
    const s = statSync(file);
    hash.update(`${file}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const now = fingerprint();
const last = existsSync(STAMP) ? readFileSync(STAMP, 'utf8') : '';
if (now === last && existsSync('dist/main.js')) {
  process.stdout.write(`build up to date (checked in ${Math.round(performance.now() - started)} ms)\n`);
} else {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(STAMP, now);
  process.stdout.write(`built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
