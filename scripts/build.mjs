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
import { builtinModules, createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });
const OUT = values.outdir;

/**
 * Bolt's parts the bot runs, taken from their own files. `@slack/bolt`'s index
 * also loads Express and body-parser (for ExpressReceiver), the AWS Lambda
 * receiver and the Assistant, which a replica never runs: about 0.1 s of each
 * start (docs/memory.md). Source keeps importing `@slack/bolt` (tests run it
 * from source); the build points it here. A name the source imports that is
 * missing here fails the build ("No matching export"), so the list cannot
 * drift silently.
 */
const BOLT_PARTS = `
const app = require('@slack/bolt/dist/App.js');
export const App = app.default;
export const LogLevel = app.LogLevel;
export const HTTPReceiver = require('@slack/bolt/dist/receivers/HTTPReceiver.js').default;
export const SocketModeReceiver = require('@slack/bolt/dist/receivers/SocketModeReceiver.js').default;
export const HTTPModuleFunctions = require('@slack/bolt/dist/receivers/HTTPModuleFunctions.js');
export const { HTTPResponseAck } = require('@slack/bolt/dist/receivers/HTTPResponseAck.js');
export const { verifySlackRequest } = require('@slack/bolt/dist/receivers/verify-request.js');
`;

/** @type {import('esbuild').Plugin} */
const boltParts = {
  name: 'bolt-parts',
  setup(b) {
    b.onResolve({ filter: /^@slack\/bolt$/ }, () => ({ path: 'bolt-parts', namespace: 'bolt-parts' }));
    b.onLoad({ filter: /.*/, namespace: 'bolt-parts' }, () => ({
      contents: BOLT_PARTS,
      resolveDir: process.cwd(),
    }));
  },
};

/**
 * Packages Bolt requires at load but a replica uses late or never, given to
 * their importer on first use instead (a proxy that requires the package when
 * a property is first read). Only for importers that read a property of the
 * package when they use it, never at load:
 * - @slack/socket-mode (and with it the npm undici and ws, ~50 ms of a start):
 *   Bolt's App requires its Socket Mode receiver, which reads
 *   `SocketModeClient` in its constructor. A Socket Mode replica loads it when
 *   it builds its receiver; an HTTP one never does.
 * - @slack/oauth (and jsonwebtoken, ~15-25 ms): both receivers read
 *   `InstallProvider` only when OAuth is configured, which this bot never is
 *   (one workspace, one bot token).
 */
const ON_FIRST_USE = [
  { module: '@slack/socket-mode', importers: /\/@slack\/bolt\/dist\/receivers\/SocketModeReceiver\.js$/ },
  { module: '@slack/oauth', importers: /\/@slack\/bolt\/dist\/receivers\/(HTTP|SocketMode)Receiver\.js$/ },
];
/** @type {import('esbuild').Plugin} */
const onFirstUse = {
  name: 'on-first-use',
  setup(b) {
    for (const { module, importers } of ON_FIRST_USE)
      b.onResolve({ filter: new RegExp(`^${module.replace('/', '\\/')}$`) }, (args) =>
        importers.test(args.importer)
          ? { path: createRequire(args.importer).resolve(args.path), namespace: 'on-first-use' }
          : undefined,
      );
    b.onLoad({ filter: /.*/, namespace: 'on-first-use' }, ({ path }) => ({
      contents: `let loaded;
module.exports = new Proxy({}, { get: (_, name) => (loaded ??= require(${JSON.stringify(path)}))[name] });`,
      resolveDir: process.cwd(),
    }));
  },
};

/**
 * Node's own modules, imported by ES modules (ours, node-fetch), are loaded
 * with require() instead, as CommonJS. An ES import of a built-in makes Node
 * build a facade that reads every export once, and many are getters that load
 * code of their own: `node:http`'s WebSocket, CloseEvent and MessageEvent load
 * undici (Node's fetch, ~50 ms of a start) for a bot that never calls it, and
 * `node:tls`'s rootCertificates parses every bundled certificate. Through
 * require(), esbuild reads a name where the code uses it, so only what runs is
 * loaded.
 */
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
/** @type {import('esbuild').Plugin} */
const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
      args.kind === 'import-statement' && BUILTINS.has(args.path)
        ? { path: args.path, namespace: 'builtin' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(path.startsWith('node:') ? path : `node:${path}`)});`,
    }));
  },
};

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
  // A native addon is found by its own package at run time; pg-native is pg's optional driver
  // (not installed); esbuild itself is loaded only to build the page from source.
  external: ['better-sqlite3', 'pg-native', 'esbuild'],
  // Bundled CommonJS packages (Bolt, the Web API client) call require() for Node's own modules,
  // which an ES module does not have; give each output file one.
  banner: {
    js: "import { createRequire as __harborRequire } from 'node:module';\nconst require = __harborRequire(import.meta.url);",
  },
  plugins: [boltParts, onFirstUse, builtinsByRequire],
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
for (const file of readdirSync(out + '/chunks')) await import(pathToFileURL(out + '/chunks/' + file).href);
flushCompileCache();`,
    OUT,
  ],
  { stdio: 'inherit' },
);
if (warm.status !== 0) process.exit(warm.status ?? 1);
