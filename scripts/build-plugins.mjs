/**
 * esbuild plugins of the production build (scripts/build.mjs): each keeps code
 * a replica does not run out of its start. docs/memory.md ("The start, trimmed
 * in the build") has the profile they came from; test/startup/main.test.ts
 * runs the build in both Slack modes.
 */
import { builtinModules, createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { ON_FIRST_USE } = require('./parts/on-first-use.cjs');

/** An esbuild filter matching the package name `name` exactly. */
const exactly = (name) => new RegExp(`^${name.replace('/', '\\/')}$`);

/**
 * Packages whose index loads much a replica never runs are taken from their
 * own files: `@slack/bolt` and `prom-client` mean scripts/parts/bolt.cjs and
 * scripts/parts/prom-client.cjs (which say why), as they do in jest.
 */
const PARTS = { '@slack/bolt': 'bolt.cjs', 'prom-client': 'prom-client.cjs' };
/** @type {import('esbuild').Plugin} */
export const packageParts = {
  name: 'package-parts',
  setup(b) {
    for (const [name, file] of Object.entries(PARTS)) {
      const path = fileURLToPath(new URL(`./parts/${file}`, import.meta.url));
      b.onResolve({ filter: exactly(name) }, () => ({ path }));
    }
  },
};

/**
 * Packages Bolt requires at load but a replica uses late or never are given to
 * their importers on first use (scripts/parts/on-first-use.cjs lists them and
 * says why). Only the importers listed there get the stand-in.
 */
/** @type {import('esbuild').Plugin} */
export const onFirstUse = {
  name: 'on-first-use',
  setup(b) {
    const helper = fileURLToPath(new URL('./parts/on-first-use.cjs', import.meta.url));
    for (const { module, importers } of ON_FIRST_USE)
      b.onResolve({ filter: exactly(module) }, (args) =>
        importers.test(args.importer)
          ? { path: createRequire(args.importer).resolve(args.path), namespace: 'on-first-use' }
          : undefined,
      );
    // The require of the real file stays literal, so esbuild bundles the package behind the stand-in.
    b.onLoad({ filter: /.*/, namespace: 'on-first-use' }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(helper)}).onFirstUse(() => require(${JSON.stringify(path)}));`,
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
