/**
 * GC pauses in this process since the last read: a benchmark's child reads
 * them around each measured burst, so a slow round shows whether the
 * collector, not the ack path, held the acks. And a full collection on
 * demand, for the measuring side (the stand-ins, the client): their heaps
 * grow with every request they record, and a pause of theirs inside a burst
 * would be charged to whichever app was being measured.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface GcPauses {
  count: number;
  totalMs: number;
  longestMs: number;
  /** The longest pause's kind: a minor (scavenge) or major (mark-compact) collection, or another. */
  longestKind: string;
  /** The heap in use when read (MB). */
  heapMb: number;
}

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

let seen: { ms: number; kind: string }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    // Node puts the collection's kind in `detail` (perf_hooks: PerformanceObserver, "gc").
    const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
    seen.push({ ms: entry.duration, kind: (kind !== undefined && KINDS[kind]) || 'other' });
  }
}).observe({ entryTypes: ['gc'] });

/** The pauses since the last call (the first call: since the process started), then forgets them. */
export function gcPausesSinceLast(): GcPauses {
  const pauses = seen;
  seen = [];
  const longest = pauses.reduce<{ ms: number; kind: string } | undefined>(
    (a, b) => (a && a.ms >= b.ms ? a : b),
    undefined,
  );
  return {
    count: pauses.length,
    totalMs: pauses.reduce((sum, p) => sum + p.ms, 0),
    longestMs: longest?.ms ?? 0,
    longestKind: longest?.kind ?? '-',
    heapMb: process.memoryUsage().heapUsed / 2 ** 20,
  };
}

let gc: (() => void) | undefined;

/**
 * A full collection now (V8's own `gc`, exposed on first use without a
 * command-line flag); resolves once its own pause has been observed and
 * forgotten, so the next read holds only what came after.
 */
export async function collectGarbage(): Promise<void> {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  // The observer hears of a pause on a later turn.
  await new Promise((resolve) => setTimeout(resolve, 10));
  gcPausesSinceLast();
}
