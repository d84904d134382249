/**
 * Bolt's parts the bot runs, taken from their own files: what `@slack/bolt`
 * means in the production build (scripts/build-plugins.mjs) and in jest
 * (jest.config.js's moduleNameMapper), so tests run Bolt as a replica does.
 * `@slack/bolt`'s index also loads Express and body-parser (for
 * ExpressReceiver), the AWS Lambda receiver and the Assistant, which a replica
 * never runs: about 0.1 s of each start (docs/memory.md), and as much again in
 * every test file that starts a bot (docs/test-suite.md). Source keeps
 * importing `@slack/bolt` (for its types, and so the mapping is one place). A
 * name the source imports that is missing here fails every test that loads
 * it (jest links ES imports of CommonJS exports by name).
 */
const app = require('@slack/bolt/dist/App.js');

module.exports = {
  App: app.default,
  LogLevel: app.LogLevel,
  HTTPReceiver: require('@slack/bolt/dist/receivers/HTTPReceiver.js').default,
  SocketModeReceiver: require('@slack/bolt/dist/receivers/SocketModeReceiver.js').default,
  HTTPModuleFunctions: require('@slack/bolt/dist/receivers/HTTPModuleFunctions.js'),
  HTTPResponseAck: require('@slack/bolt/dist/receivers/HTTPResponseAck.js').HTTPResponseAck,
  verifySlackRequest: require('@slack/bolt/dist/receivers/verify-request.js').verifySlackRequest,
};
