/**
 * The production build (scripts/build.mjs) as `npm start` and the image run
 * it: one esbuild bundle in a folder laid out as the image lays out /app
 * (package.json, manifest.yml, examples/ and node_modules beside dist/). It
 * starts in local mode and serves the local workspace's page from the built
 * page bundle, finds its shipped files from the bundle, and runs with the
 * compile cache the build filled.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';

const ROOT = process.cwd();
let app: string;
let child: ChildProcessWithoutNullStreams | undefined;

beforeAll(async () => {
  app = await mkdtemp(join(tmpdir(), 'harbor-build-'));
  for (const file of ['package.json', 'manifest.yml', 'examples'])
    await cp(join(ROOT, file), join(app, file), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(app, 'node_modules'));
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--outdir', join(app, 'dist')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`the build failed:\n${build.stdout}${build.stderr}`);
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  await rm(app, { recursive: true, force: true });
});

it('is one entry with chunks for the modes only some replicas use, and a warm compile cache', () => {
  const chunks = readdirSync(join(app, 'dist/chunks'));
  // The local workspace, the simulator and each store load only when chosen (docs/memory.md).
  for (const lazy of ['local-mode-', 'simulator-', 'sqlite-store-', 'postgres-store-'])
    expect(chunks.some((c) => c.startsWith(lazy))).toBe(true);
  expect(existsSync(join(app, 'dist/main.js'))).toBe(true);
  expect(readdirSync(join(app, 'dist/.compile-cache')).length).toBeGreaterThan(0);
});

it('starts from the bundle in local mode and serves the built page', async () => {
  const data = join(app, 'data');
  // Marks the built page, so the test can tell it from a page built from source at run time.
  await appendFile(join(app, 'dist/workspace/page/app.js'), '\n// served from the build\n');
  child = spawn(process.execPath, ['--max-semi-space-size=8', 'dist/main.js'], {
    cwd: app,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HARBOR_LOCAL: '1',
      HARBOR_DATA_DIR: data,
      HARBOR_LOG_LEVEL: 'warn',
    },
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk) => {
    err += String(chunk);
  });
  const url = await new Promise<string>((resolve, reject) => {
    child?.stdout.on('data', (chunk) => {
      out += String(chunk);
      const found = /Harbormaster local workspace: (http:\/\/\S+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    child?.once('exit', (code) => reject(new Error(`exited (${code}) before serving:\n${out}${err}`)));
  });
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('/workspace/app.js');
  const script = await fetch(new URL('/workspace/app.js', url));
  expect(script.status).toBe(200);
  // The bundle the build wrote, not one built from source at run time (esbuild is not in the image).
  expect(await script.text()).toContain('// served from the build');
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const [code] = await exited;
  expect(code).toBe(0);
  expect(err).not.toContain('could not start');
});
