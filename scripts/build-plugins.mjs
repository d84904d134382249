/**
 * esbuild plugins of the production build (scripts/build.mjs): each keeps code
 * a replica does not run out of its start. docs/memory.md ("The start, trimmed
 * in the build") has the profile they came from; test/startup/main.test.ts
 * runs the build in both Slack modes.
 */
import { builtinModules, createRequire } from 'node:module';

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
export const boltParts = {
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
export const onFirstUse = {
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
 * undici (Node's fetch, ~50 ms) at start, before anything calls it (the Web
 * API client loads it at its first call), and
 * `node:tls`'s rootCertificates parses every bundled certificate. Through
 * require(), esbuild reads a name where the code uses it, so only what runs is
 * loaded.
 */
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
/** @type {import('esbuild').Plugin} */
export const builtinsByRequire = {
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
