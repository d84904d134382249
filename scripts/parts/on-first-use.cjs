/**
 * Packages Bolt requires at load but a replica uses late or never, given to
 * their importer on first use instead: a proxy that requires the package when
 * a property is first read. The production build (scripts/build-plugins.mjs)
 * and jest (jest.config.js, through socket-mode.cjs and oauth.cjs) both use
 * it, so tests load Bolt as a replica does. Only for importers that read a
 * property of the package when they use it, never at load:
 * - @slack/socket-mode (and with it the npm undici and ws, ~50 ms of a start):
 *   Bolt's App requires its Socket Mode receiver, which reads
 *   `SocketModeClient` in its constructor. A Socket Mode replica loads it when
 *   it builds its receiver; an HTTP one never does.
 * - @slack/oauth (and jsonwebtoken, ~15-25 ms): both receivers read
 *   `InstallProvider` only when OAuth is configured, which this bot never is
 *   (one workspace, one bot token).
 */
exports.ON_FIRST_USE = [
  { module: '@slack/socket-mode', importers: /\/@slack\/bolt\/dist\/receivers\/SocketModeReceiver\.js$/ },
  { module: '@slack/oauth', importers: /\/@slack\/bolt\/dist\/receivers\/(HTTP|SocketMode)Receiver\.js$/ },
];

/** A stand-in for a module's exports that calls `load` (which requires the module) on its first property read. */
exports.onFirstUse = (load) => {
  let loaded;
  return new Proxy(
    {},
    {
      get: (_, name) => {
        loaded ??= load();
        return loaded[name];
      },
    },
  );
};

/**
 * For jest (socket-mode.cjs, oauth.cjs): the stand-in for package `name`, whose main file is found
 * from its package.json, because jest would map the bare name (and, inside jest, createRequire's
 * resolve too) back to the stand-in's own file.
 */
exports.packageOnFirstUse = (name) => {
  const { dirname, join } = require('node:path');
  const manifest = require.resolve(`${name}/package.json`);
  const main = join(dirname(manifest), require(manifest).main);
  return exports.onFirstUse(() => require(main));
};
