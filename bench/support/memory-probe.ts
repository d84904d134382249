/**
 * Preloaded (`--import`) into each app the memory benchmark measures: on the
 * parent's "measure" message it collects garbage (the process runs with
 * --expose-gc) and answers with process.memoryUsage(), so heap figures come
 * from inside the app without the app knowing about the benchmark.
 */
type Gc = () => void;

process.on('message', (message: unknown) => {
  if (message !== 'measure') return;
  const gc = (globalThis as { gc?: Gc }).gc;
  if (!gc) throw new Error('the memory probe needs node --expose-gc');
  // Twice: the first pass can leave objects that only become unreachable once finalizers ran.
  gc();
  gc();
  process.send?.({ memory: process.memoryUsage() });
});
// The channel alone must not keep a finished app alive.
process.channel?.unref();
