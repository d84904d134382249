// jest.config.js maps @slack/socket-mode here: Bolt loads it on first use, as in the build (on-first-use.cjs).
module.exports = require('./on-first-use.cjs').packageOnFirstUse('@slack/socket-mode');
