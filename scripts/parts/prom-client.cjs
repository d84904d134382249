/**
 * The parts of prom-client the bot uses, from their own files: what
 * `prom-client` means in the production build (scripts/build-plugins.mjs) and
 * in jest (jest.config.js), as scripts/parts/bolt.cjs is for Bolt. Its index
 * also loads the Pushgateway (with node:https and node:url), the Summary (with
 * tdigest), the cluster aggregator and the default process metrics, which a
 * replica uses late or never: about 30 ms of each start (docs/memory.md). The
 * default metrics load when a registry asks for them (processMetrics).
 */
module.exports = {
  Registry: require('prom-client/lib/registry'),
  Counter: require('prom-client/lib/counter'),
  Gauge: require('prom-client/lib/gauge'),
  Histogram: require('prom-client/lib/histogram'),
  collectDefaultMetrics: (...args) => require('prom-client/lib/defaultMetrics')(...args),
};
