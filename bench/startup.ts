/**
 * How long `npm start` takes to serve the local workspace page: once after a
 * change (the build runs) and twice with nothing changed (the build is
 * skipped). Prints seconds from spawning `npm start` to the page answering.
 * Uses a throw-away data directory and an OS-chosen port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Seconds until the page at the printed URL answers 200; stops the process after. */
async function timedStart(dataDir: string): Promise<number> {
  const started = performance.now();
  const proc: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HARBOR_LOCAL: '1', HARBOR_DATA_DIR: dataDir, HARBOR_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout?.on('data', (chunk) => {
      out += String(chunk);
      const found = /Harbormaster local workspace: (http:\/\/\S+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    proc.on('exit', (code) => reject(new Error(`npm start exited (${code}) before serving:\n${out}`)));
  });
  const page = await fetch(url);
  const seconds = (performance.now() - started) / 1000;
  if (page.status !== 200) throw new Error(`the page answered ${page.status}`);
  const exited = once(proc, 'exit');
  // npm runs node as a child: signal the whole group this script started.
  if (proc.pid !== undefined) process.kill(-proc.pid, 'SIGTERM');
  await exited;
  return seconds;
}

const dataDir = await mkdtemp(join(tmpdir(), 'harbor-bench-start-'));
try {
  // A changed input (as after a pull) makes the first start build.
  const now = new Date();
  await utimes(join(ROOT, 'src/main.ts'), now, now);
  const cold = await timedStart(dataDir);
  const warm = [await timedStart(dataDir), await timedStart(dataDir)];
  process.stdout.write(`npm start to page served, after a change: ${cold.toFixed(2)} s\n`);
  process.stdout.write(
    `npm start to page served, nothing changed: ${warm.map((s) => s.toFixed(2)).join(' s, ')} s\n`,
  );
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
