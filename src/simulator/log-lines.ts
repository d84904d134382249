/**
 * Simulated game-server output: a bounded buffer of recent lines per
 * container, and a deterministic generator of lines that look like a game
 * server log (some with `<`, `>` and `&`, which the bot must escape).
 */

/** Lines kept per container for non-follow reads. */
const RECENT_LINES = 1000;

/** The last `max` lines of one container's output. */
export class LogBuffer {
  private lines: string[] = [];

  constructor(private readonly max = RECENT_LINES) {}

  /** Appends lines, dropping the oldest beyond the limit. */
  push(lines: readonly string[]): void {
    if (lines.length >= this.max) {
      this.lines = lines.slice(lines.length - this.max);
      return;
    }
    for (const line of lines) this.lines.push(line);
    // Trim in bulk, not per line, so a high line rate costs amortised O(1) per line.
    if (this.lines.length > this.max * 2) this.lines = this.lines.slice(-this.max);
  }

  /** The last `n` lines (all kept lines when n is undefined). */
  tail(n?: number): string[] {
    const kept = this.lines.length > this.max ? this.lines.slice(-this.max) : this.lines.slice();
    if (n === undefined) return kept;
    return n <= 0 ? [] : kept.slice(-n);
  }
}

let cachedMs = Number.NaN;
let cachedIso = '';
/** ISO timestamp of `ms`, cached because a burst of lines shares the same millisecond. */
function isoAt(ms: number): string {
  if (ms !== cachedMs) {
    cachedMs = ms;
    cachedIso = new Date(ms).toISOString();
  }
  return cachedIso;
}

type Template = (seq: number) => string;

const GAME_SERVER: readonly Template[] = [
  (s) => `INFO [game] tick=${s} players=${(s * 7) % 17}`,
  (s) => `DEBUG [net] rtt=${20 + (s % 90)}ms player=${s % 64}`,
  (s) => `INFO [chat] <Player${s % 64}> gg & wp`,
  (s) => `INFO [game] tick=${s} players=${(s * 7) % 17}`,
  (s) => `INFO [match] round=${Math.floor(s / 8)} state=<live>`,
  (s) => `INFO [world] entities=${1000 + (s % 500)}`,
  (s) => `WARN [net] rtt>150ms for player=${s % 64} & resending`,
  (s) => `INFO [game] tick=${s} players=${(s * 7) % 17}`,
];

/** Produces numbered lines for one container; the first container is the game server, others sidecars. */
export class LineGenerator {
  private seq = 0;

  constructor(
    private readonly container: string,
    private readonly gameServer: boolean,
  ) {}

  /** `count` lines with timestamps spread over (fromMs, toMs]. */
  lines(count: number, fromMs: number, toMs: number): string[] {
    const out = new Array<string>(count);
    const span = Math.max(0, toMs - fromMs);
    for (let i = 0; i < count; i++) {
      const at = fromMs + Math.floor((span * (i + 1)) / count);
      out[i] = `${isoAt(at)} ${this.text(this.seq++)}`;
    }
    return out;
  }

  private text(seq: number): string {
    if (!this.gameServer) return `INFO [${this.container}] scraped series=${seq % 1000} target=<game-server>`;
    const template = GAME_SERVER[seq % GAME_SERVER.length] as Template;
    return template(seq);
  }
}

/** What a container prints when it is created (so a non-follow read is never empty). */
export function bootLines(container: string, image: string | undefined, nowMs: number): string[] {
  const at = isoAt(nowMs);
  return [
    `${at} INFO [boot] container ${container} starting image=${image ?? '<none>'}`,
    `${at} INFO [boot] config loaded & validated`,
  ];
}
