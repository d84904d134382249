/**
 * Jest's node environment, plus one headless Chromium per jest worker for the
 * browser tests (test/workspace/browser/harness.ts).
 *
 * Each browser test file used to launch a Chromium of its own (about 3 s of
 * CPU, browser and GPU processes and their start-up) and load playwright-core
 * (a 3.6 MB bundle) into its own module registry. This module is loaded once
 * per worker, outside the files' sandboxes, so a browser launched here outlives
 * a file: the next browser file in the same worker takes a fresh browser
 * context (its own cookies, storage and pages, as a fresh profile had) in the
 * same Chromium. The browser is launched on first use only, so workers that
 * run no browser file start none.
 *
 * Run in band (jest's own process, no worker around it) the browser is closed
 * after each file, as before: nothing would close it at the end of the run and
 * jest would wait for it. In a worker it is closed when jest ends the worker.
 */
const NodeEnvironment = require('jest-environment-node').TestEnvironment;

/** jest-worker's "end" message to its child processes (jest-worker/build/types CHILD_MESSAGE_END). */
const CHILD_MESSAGE_END = 2;
/** A forked jest worker talks to jest over IPC; run in band there is no channel. */
const IN_WORKER = typeof process.send === 'function';

/** JSON of the launch options -> the browser launched with them (a promise, so callers at once share one). */
const browsers = new Map();

function closeAll() {
  const closing = [...browsers.values()].map((launched) => launched.then((b) => b.close()).catch(() => {}));
  browsers.clear();
  return Promise.all(closing);
}

function onWorkerMessage(message) {
  if (!Array.isArray(message) || message[0] !== CHILD_MESSAGE_END) return;
  // Jest has stopped listening too: once the browser has closed, nothing keeps the worker alive.
  // Closing takes about half a second on a busy machine, so jest.config.js gives ending workers
  // longer than jest's default before it kills them as leaking.
  process.off('message', onWorkerMessage);
  void closeAll();
}

/** The browser for these launch options, launched on first use in this process. */
function sharedChromium(options) {
  const key = JSON.stringify(options);
  let launched = browsers.get(key);
  if (!launched) {
    if (IN_WORKER && browsers.size === 0) process.on('message', onWorkerMessage);
    launched = require('playwright-core').chromium.launch(options);
    browsers.set(key, launched);
    launched.then(
      // A browser that crashed or was closed is launched again by the next file that asks.
      (b) => b.on('disconnected', () => browsers.get(key) === launched && browsers.delete(key)),
      () => browsers.get(key) === launched && browsers.delete(key),
    );
  }
  return launched;
}

class HarborEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.harborSharedChromium = sharedChromium;
  }

  async teardown() {
    if (!IN_WORKER) await closeAll();
    await super.teardown();
  }
}

module.exports = HarborEnvironment;
