/**
 * A TypeScript script that a test runs as a process of its own (a second
 * replica, an apply killed mid-way, another time zone), bundled into one ES
 * module that plain `node` runs. `node --import tsx script.ts` cost about
 * 1.4 s of CPU per process, tsx's loader resolving and transforming every
 * module on its hooks thread; the bundle starts in about half that. The
 * packages stay outside the bundle (node loads them from node_modules), so
 * native modules and each package's own files work as they do under tsx.
 *
 * Bundles are cached under node_modules/.cache/harbor-fixtures, each beside a
 * list of the files it was built from and their hashes: a bundle is used only
 * while every one of those files is as it was, so an edited source builds
 * afresh and a clean clone builds each script once.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, relative } from 'node:path';

/** esbuild, loaded only when a bundle has to be built (most runs find theirs up to date). */
const esbuild = (): typeof import('esbuild') => createRequire(import.meta.url)('esbuild');
/** The installed esbuild's version, without loading it. */
const esbuildVersion = (): string =>
  (
    JSON.parse(readFileSync(join(process.cwd(), 'node_modules', 'esbuild', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

const ROOT = process.cwd();
const CACHE = join(ROOT, 'node_modules', '.cache', 'harbor-fixtures');

interface Manifest {
  esbuild: string;
  /** Project-relative path -> sha1 of its content when the bundle was built. */
  inputs: Record<string, string>;
}

function sha1(path: string): string | undefined {
  try {
    return createHash('sha1').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined;
  }
}

function upToDate(manifestPath: string): boolean {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  } catch {
    return false;
  }
  if (manifest.esbuild !== esbuildVersion()) return false;
  return Object.entries(manifest.inputs).every(([path, hash]) => sha1(join(ROOT, path)) === hash);
}

/** Writes through a temporary file, so a worker never runs another worker's half-written bundle. */
function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/** The path of a runnable bundle of `script` (project-relative or absolute), built if out of date. */
export function fixtureScript(script: string): string {
  const entry = relative(ROOT, join(ROOT, script));
  const key = createHash('sha1').update(entry).digest('hex').slice(0, 12);
  const bundlePath = join(CACHE, `${basename(entry, '.ts')}-${key}.mjs`);
  const manifestPath = `${bundlePath}.json`;
  if (upToDate(manifestPath)) return bundlePath;

  const result = esbuild().buildSync({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const inputs: Record<string, string> = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const hash = sha1(join(ROOT, input));
    if (hash) inputs[input] = hash;
  }
  mkdirSync(CACHE, { recursive: true });
  writeAtomically(bundlePath, result.outputFiles[0]?.text ?? '');
  // The manifest last: a bundle without its manifest is never taken as up to date.
  writeAtomically(manifestPath, JSON.stringify({ esbuild: esbuildVersion(), inputs } satisfies Manifest));
  return bundlePath;
}
