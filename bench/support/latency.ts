/**
 * Timing many signed requests fired at once into a Bolt HTTP receiver, and
 * the figures drawn from them. The clock stops when the receiver's answer
 * (the ack) has fully arrived, which is what Slack waits for.
 */
import { performance } from 'node:perf_hooks';
import { postSigned } from '../../src/workspace/signing.js';

/** One burst's outcome: every latency (ms, sorted) and what did not come back as HTTP 200. */
export interface Burst {
  latenciesMs: number[];
  /** Answers other than 200 by status ("404", "500") or error message. */
  failures: Map<string, number>;
}

/** Summary figures of a burst, in milliseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
}

/**
 * POSTs every body to `url` at the same moment and times each until its answer arrives.
 * Each request opens its own connection (`connection: close`), so no burst finds
 * sockets left warm (or half-closed) by the one before.
 */
export async function burst(url: string, secret: string, bodies: readonly string[]): Promise<Burst> {
  const failures = new Map<string, number>();
  const fail = (reason: string) => failures.set(reason, (failures.get(reason) ?? 0) + 1);
  const timed = bodies.map(async (body) => {
    const start = performance.now();
    try {
      const res = await postSigned(url, secret, body, { headers: { connection: 'close' } });
      if (res.status !== 200) fail(String(res.status));
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err));
    }
    return performance.now() - start;
  });
  const latenciesMs = (await Promise.all(timed)).sort((a, b) => a - b);
  return { latenciesMs, failures };
}

/** Nearest-rank percentile of ascending `sorted` values (NaN when empty). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** p50, p99, max and failure count of a burst. */
export function summarize(b: Burst): LatencySummary {
  let failed = 0;
  for (const n of b.failures.values()) failed += n;
  return {
    count: b.latenciesMs.length,
    p50: percentile(b.latenciesMs, 50),
    p99: percentile(b.latenciesMs, 99),
    max: b.latenciesMs.at(-1) ?? Number.NaN,
    failed,
  };
}

/** A plain-text table: the first `left` columns left-aligned, the rest right-aligned, a rule under the header. */
export function table(rows: readonly (readonly string[])[], left = 1): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  const line = (r: readonly string[]) =>
    r
      .map((cell, i) => (i < left ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const [head, ...body] = rows;
  return [line(head ?? []), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
