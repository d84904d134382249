/**
 * The production build: the bot bundled by esbuild into dist/main.js (with
 * the modes only some replicas need, such as the local workspace, the
 * embedded simulator and each store, split into chunks that load only when
 * chosen), and the local workspace's page into dist/workspace/page/.
 *
 * Why a bundle: a replica that loads its ~1,300 modules one by one spends
 * most of its start in Node's module loader (resolving, reading package.json
 * files, compiling each file): about 0.9 s before it can answer anything,
 * against 0.3-0.4 s for a bare Bolt app. One bundle loads in about the time
 * of a bare Bolt app (docs/memory.md, bench/memory.ts). Types are not checked
 * here: `npm test` runs tsc over the whole program first.
 *
 * `node scripts/build.mjs [--outdir <dir>]`: dist/ by default; tests build
 * into a folder of their own.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { builtinsByRequire, onFirstUse, packageParts } from './build-plugins.mjs';

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });
const OUT = values.outdir;

// A production replica does not need dist/ from an earlier build (old chunks would pile up).
rmSync(OUT, { recursive: true, force: true });

await build({
  entryPoints: { main: 'src/main.ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  splitting: true,
  minifyWhitespace: true,
  minifySyntax: true,
  outdir: OUT,
  chunkNames: 'chunks/[name]-[hash]',
  // Packages' licence comments go to a file beside each chunk (chunks/*.LEGAL.txt), not into the
  // code: one of them (formdata-polyfill's author's name) is not ASCII, which made V8 hold the
  // whole 2.4 MB main chunk's source as a two-byte string (twice the memory, slower to decode).
  legalComments: 'external',
  // A native addon is found by its own package at run time; pg-native is pg's optional driver
  // (not installed); esbuild itself is loaded only to build the page from source.
  external: ['better-sqlite3', 'pg-native', 'esbuild'],
  // Bundled CommonJS packages (Bolt, the Web API client) call require() for Node's own modules,
  // which an ES module does not have; give each output file one.
  banner: {
    js: "import { createRequire as __harborRequire } from 'node:module';\nconst require = __harborRequire(import.meta.url);",
  },
  plugins: [packageParts, onFirstUse, builtinsByRequire],
  logLevel: 'warning',
});

await build({
  entryPoints: ['src/workspace/page/main.ts'],
  bundle: true,
  format: 'esm',
  target: 'es2020',
  outdir: join(OUT, 'workspace/page'),
  entryNames: 'app',
  logLevel: 'warning',
});

// Node's compile cache, filled now so that a replica's first start reads its compiled code instead
// of compiling the bundle (src/main.ts turns it on). Importing the chunks runs only their
// module-level definitions; main.js, which starts the bot, is not imported.
const warm = spawnSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `import { enableCompileCache, flushCompileCache } from 'node:module';
import { readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [out] = process.argv.slice(1);
enableCompileCache(out + '/.compile-cache');
for (const file of readdirSync(out + '/chunks')) if (file.endsWith('.js')) await import(pathToFileURL(out + '/chunks/' + file).href);
flushCompileCache();`,
    OUT,
  ],
  { stdio: 'inherit' },
);
if (warm.status !== 0) process.exit(warm.status ?? 1);
