/**
 * Keeps a reconnected tail from repeating history. Only `follow=true` is
 * documented for vessel logs; an API that ignores `tailLines=0` answers a
 * reconnect with the log from its start (or some recent part), and a tail
 * that shows it all floods the thread with lines it already showed.
 *
 * So the tail remembers the last lines it passed on, and after a reconnect
 * holds what arrives until it finds those lines again, in order: everything
 * up to them is a resend and is dropped, everything after them is new. When
 * they never show up (the API did honour tailLines, or the log was cut), the
 * newest held lines are passed on and the older ones dropped, and the caller
 * marks that lines may be missing. Memory is bounded by `memory` keys and
 * `maxHeld` held lines.
 */

interface ReplayFilterOptions {
  /** How many of the last lines passed on are remembered to find the overlap (default 20). */
  memory?: number;
  /** Lines held while looking for the overlap (default 2000, at most twice that); older ones are dropped. */
  maxHeld?: number;
  /** When no overlap is found, how many of the newest held lines are passed on (default 20). */
  keepOnMiss?: number;
}

/** How a hold ended: what to show, and what to say about the lines that were not shown. */
export type ReplayVerdict =
  /** The remembered lines came again: `dropped` lines were a resend, nothing is missing. */
  | { kind: 'overlap'; dropped: number }
  /** They did not: the newest held lines follow, `dropped` older ones were not shown, lines may be missing. */
  | { kind: 'no_overlap'; dropped: number };

/** What a line or a decision gives the caller: lines to pass on, and the verdict when a hold just ended. */
export interface ReplayStep {
  lines: string[];
  verdict?: ReplayVerdict;
}

/** Lines are compared by length and a prefix, so remembering a huge line costs little. */
const KEY_PREFIX = 512;
const keyOf = (line: string) => `${line.length}:${line.slice(0, KEY_PREFIX)}`;

/** One tail's memory of recent lines and, after a reconnect, its hold. */
export class ReplayFilter {
  private readonly memory: number;
  private readonly maxHeld: number;
  private readonly keepOnMiss: number;
  /** Keys of the last lines passed on, oldest first. */
  private recent: string[] = [];
  private hold: Hold | undefined;

  constructor(options: ReplayFilterOptions = {}) {
    this.memory = Math.max(1, options.memory ?? 20);
    this.maxHeld = Math.max(1, options.maxHeld ?? 2000);
    this.keepOnMiss = Math.max(0, options.keepOnMiss ?? 20);
  }

  /** True while lines are held after a reconnect. */
  get holding(): boolean {
    return this.hold !== undefined;
  }

  /**
   * A reconnect: hold what arrives until the remembered lines show up again.
   * Nothing to remember (no line was passed on yet) means nothing to hold.
   */
  begin(): void {
    if (this.recent.length === 0) return;
    this.hold = new Hold(this.recent.slice(-this.memory));
  }

  /** One arriving line: passed on at once, held, or (ending a hold) the end of a resend. */
  push(line: string): ReplayStep {
    const hold = this.hold;
    if (!hold) {
      this.remember(line);
      return { lines: [line] };
    }
    if (hold.add(line, keyOf(line), this.maxHeld)) {
      this.hold = undefined; // the resend ends with this line; what comes next is new
      return { lines: [], verdict: { kind: 'overlap', dropped: hold.count } };
    }
    return { lines: [] };
  }

  /**
   * Ends a hold without an overlap (the wait is over, or the stream ended):
   * the newest held lines are passed on. Undefined when nothing was held.
   */
  decide(): ReplayStep | undefined {
    const hold = this.hold;
    if (!hold) return undefined;
    this.hold = undefined;
    const kept = hold.lines.slice(Math.max(0, hold.lines.length - this.keepOnMiss));
    for (const line of kept) this.remember(line);
    const dropped = hold.count - kept.length;
    // Nothing held, or few enough to show them all and drop none: the API sent only new lines.
    if (hold.count === 0) return { lines: [] };
    return dropped === 0 ? { lines: kept } : { lines: kept, verdict: { kind: 'no_overlap', dropped } };
  }

  private remember(line: string): void {
    this.recent.push(keyOf(line));
    if (this.recent.length > this.memory * 2) this.recent = this.recent.slice(-this.memory);
  }
}

/**
 * Lines held since a reconnect and a streaming search (Knuth–Morris–Pratt)
 * for the remembered keys as a contiguous run.
 */
class Hold {
  /** Held lines, bounded; `count` counts every line held, dropped or not. */
  lines: string[] = [];
  count = 0;
  private readonly failure: number[];
  private matched = 0;

  constructor(private readonly pattern: readonly string[]) {
    this.failure = failureTable(pattern);
  }

  /** Holds a line; true when it completes the remembered run. */
  add(line: string, key: string, maxHeld: number): boolean {
    this.count += 1;
    this.lines.push(line);
    // Trim in batches so holding stays linear.
    if (this.lines.length > maxHeld * 2) this.lines = this.lines.slice(-maxHeld);
    const p = this.pattern;
    while (this.matched > 0 && p[this.matched] !== key) this.matched = this.failure[this.matched - 1] ?? 0;
    if (p[this.matched] === key) this.matched += 1;
    return this.matched === p.length;
  }
}

function failureTable(pattern: readonly string[]): number[] {
  const table = new Array<number>(pattern.length).fill(0);
  let k = 0;
  for (let i = 1; i < pattern.length; i++) {
    while (k > 0 && pattern[i] !== pattern[k]) k = table[k - 1] ?? 0;
    if (pattern[i] === pattern[k]) k += 1;
    table[i] = k;
  }
  return table;
}
