/**
 * Jest's test order, with a guess for files it has no time for. Jest runs the
 * slowest files first (so no worker is left with a long file at the end), but
 * it knows a file's time only from an earlier run on the same checkout; on a
 * clean clone, as in CI, it falls back to file size, and the browser and
 * end-to-end files, small but slow, started late (a 5 s browser file ran
 * last). Without a recorded time, a file's time is guessed from where it
 * lives (docs/test-suite.md): browser files take Chromium and a page
 * (15 s), end-to-end files start the bot and its stand-ins (2 s and up);
 * others by size.
 */
const Sequencer = require('@jest/test-sequencer').default;

const BYTES_PER_SECOND = 20_000;

class SlowestFirst extends Sequencer {
  time(test) {
    const recorded = super.time(test);
    if (recorded !== undefined) return recorded;
    const size = test.context.hasteFS.getSize(test.path) ?? 0;
    if (test.path.includes('/test/workspace/browser/')) return 15 + size / BYTES_PER_SECOND;
    if (test.path.includes('/test/e2e/')) return 2 + size / BYTES_PER_SECOND;
    return size / BYTES_PER_SECOND;
  }
}

module.exports = SlowestFirst;
