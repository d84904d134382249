/** Jest runs the TypeScript sources as native ES modules (node-fetch 3 is ESM-only). */
import { availableParallelism } from 'node:os';

export default {
  // Node's environment, plus one Chromium per worker for the browser tests (launched on first use).
  testEnvironment: '<rootDir>/scripts/jest-environment.cjs',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // Sources import siblings as './x.js' (NodeNext style); jest resolves the .ts file.
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // Bolt and prom-client as the production build loads them: their parts, not their indexes, and
    // Socket Mode and OAuth on first use (scripts/parts/). Only Bolt's receivers import those two.
    '^@slack/bolt$': '<rootDir>/scripts/parts/bolt.cjs',
    '^prom-client$': '<rootDir>/scripts/parts/prom-client.cjs',
    '^@slack/socket-mode$': '<rootDir>/scripts/parts/socket-mode.cjs',
    '^@slack/oauth$': '<rootDir>/scripts/parts/oauth.cjs',
  },
  transform: {
    // Types are stripped file by file (scripts/jest-transform.mjs); `npm run typecheck` checks them.
    '^.+\\.ts$': '<rootDir>/scripts/jest-transform.mjs',
  },
  // The PostgreSQL test database's commits do not wait for the disk (scripts/jest-global-setup.cjs says why).
  globalSetup: '<rootDir>/scripts/jest-global-setup.cjs',
  // Jest's runtime with V8's code cache, so each test file does not compile every module again.
  runtime: '<rootDir>/scripts/jest-runtime.cjs',
  // Three workers on two cores: the end-to-end tests spend about a third of their time waiting on
  // sockets, browsers and child processes, which a worker per core leaves idle (jest's default, one
  // fewer than cores, would run in band here). docs/test-suite.md has the figures. A number, not
  // '150%': jest reads a percentage over 100 as that many workers.
  maxWorkers: Math.ceil(availableParallelism() * 1.5),
  testTimeout: 20000,
  // An ending worker closes its Chromium first (scripts/jest-environment.cjs), about half a second
  // on a busy machine: jest's default 500 ms would kill it and report a leak.
  workerGracefulExitTimeout: 3000,
};
