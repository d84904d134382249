/** Jest runs the TypeScript sources as native ES modules (node-fetch 3 is ESM-only). */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // Sources import siblings as './x.js' (NodeNext style); jest resolves the .ts file.
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    // Types are stripped file by file (scripts/jest-transform.mjs); `npm run typecheck` checks them.
    '^.+\\.ts$': '<rootDir>/scripts/jest-transform.mjs',
  },
  // Jest's runtime with V8's code cache, so each test file does not compile every module again.
  runtime: '<rootDir>/scripts/jest-runtime.cjs',
  // One worker per core, not jest's default of one fewer: the end-to-end tests spend part of
  // their time waiting on sockets and browsers, and a two-core machine would run in band.
  maxWorkers: '100%',
  testTimeout: 20000,
};
