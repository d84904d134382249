// jest.config.js maps @slack/oauth here: Bolt loads it on first use, as in the build (on-first-use.cjs).
// The package's main file is found from its package.json: jest would map the bare name (and inside
// jest, createRequire's resolve too) back to this file.
const { dirname, join } = require('node:path');
const { onFirstUse } = require('./on-first-use.cjs');

const manifest = require.resolve('@slack/oauth/package.json');
const real = join(dirname(manifest), require(manifest).main);
module.exports = onFirstUse(() => require(real));
