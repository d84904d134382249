/**
 * The bounded memory of one log tail. A game server can write megabytes per
 * second while Slack shows a few lines every second or two, so the tail keeps
 * only the newest lines, bounded both in count and in characters, and counts
 * what it had to throw away. Readers take "everything since my cursor" and
 * learn how many lines were evicted before they got to them.
 */

/** One kept entry: a log line, or a marker the tail inserted itself (e.g. a reconnect gap). */
export interface RingLine {
  readonly text: string;
  /** True for a marker: it is kept and shown like a line but never counted as a log line. */
  readonly marker: boolean;
}

/**
 * A reader's position. `entry` numbers every entry ever pushed (markers
 * included); `line` counts the log lines before that entry, so the number of
 * missed log lines is exact even when markers were evicted too.
 */
export interface RingCursor {
  readonly entry: number;
  readonly line: number;
}

/** What a reader gets: the entries after its cursor, how many log lines it missed, and its new cursor. */
interface RingTake {
  lines: RingLine[];
  missed: number;
  cursor: RingCursor;
}

interface LineRingOptions {
  /** Most entries kept. */
  maxLines: number;
  /** Most characters (UTF-16 code units, as Slack counts) kept over all entries. */
  maxChars: number;
  /** Longer lines are cut to this many characters, the last one being `…`. */
  maxLineLength: number;
}

/** A cursor before the first entry of any ring. */
export const RING_START: RingCursor = { entry: 0, line: 0 };

const ELLIPSIS = '…';

/** Cuts `line` to `max` characters ending in `…`, never splitting a surrogate pair. */
export function truncateLine(line: string, max: number): string {
  if (line.length <= max) return line;
  let end = Math.max(0, max - ELLIPSIS.length);
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1; // a high surrogate without its low half
  return line.slice(0, end) + ELLIPSIS;
}

/** A ring of the newest log lines, bounded in entries and characters; push is O(1) amortized. */
export class LineRing {
  readonly maxLines: number;
  readonly maxChars: number;
  readonly maxLineLength: number;
  private readonly texts: string[];
  private readonly markers: Uint8Array;
  private head = 0; // slot of the oldest entry
  private count = 0;
  private charCount = 0;
  private entries = 0; // entries ever pushed
  private logLines = 0; // log lines ever pushed
  private evictedLogLines = 0;
  private droppedLines = 0;
  private takenUpTo = 0; // the furthest entry any reader has taken

  constructor(options: LineRingOptions) {
    const { maxLines, maxChars, maxLineLength } = options;
    for (const [name, value] of Object.entries(options)) {
      if (!Number.isInteger(value) || value < 1) {
        throw new RangeError(`LineRing ${name} must be a positive integer (got ${value})`);
      }
    }
    if (maxLineLength > maxChars) {
      throw new RangeError(
        `LineRing maxLineLength (${maxLineLength}) must not exceed maxChars (${maxChars})`,
      );
    }
    this.maxLines = maxLines;
    this.maxChars = maxChars;
    this.maxLineLength = maxLineLength;
    this.texts = new Array<string>(maxLines).fill('');
    this.markers = new Uint8Array(maxLines);
  }

  /** Appends a log line (cut to maxLineLength), evicting the oldest entries beyond the bounds. */
  push(line: string): void {
    this.append(truncateLine(line, this.maxLineLength), false);
    this.logLines += 1;
  }

  /** Appends a marker entry: shown like a line, but not counted in `seen`, `dropped` or `missed`. */
  pushMarker(text: string): void {
    this.append(truncateLine(text, this.maxLineLength), true);
  }

  /** Log lines ever pushed. */
  get seen(): number {
    return this.logLines;
  }

  /** Log lines evicted before any reader had taken them. */
  get dropped(): number {
    return this.droppedLines;
  }

  /** Entries kept now. */
  get size(): number {
    return this.count;
  }

  /** Characters kept now. */
  get chars(): number {
    return this.charCount;
  }

  /** The position after the newest entry (what a reader that is up to date holds). */
  get cursor(): RingCursor {
    return { entry: this.entries, line: this.logLines };
  }

  /** The newest `n` kept entries, oldest first. */
  latest(n: number): RingLine[] {
    const k = Math.max(0, Math.min(Math.floor(n), this.count));
    return this.range(this.count - k, this.count);
  }

  /** Every kept entry, oldest first. */
  snapshot(): RingLine[] {
    return this.range(0, this.count);
  }

  /** True when entries were pushed after `cursor`. */
  hasNews(cursor: RingCursor): boolean {
    return cursor.entry < this.entries;
  }

  /** The entries after `cursor`, the log lines evicted before they could be taken, and the new cursor. */
  takeSince(cursor: RingCursor): RingTake {
    if (cursor.entry > this.entries || cursor.line > this.logLines || cursor.entry < 0) {
      throw new RangeError(`cursor ${cursor.entry}/${cursor.line} is not from this ring`);
    }
    const oldest = this.entries - this.count;
    const fromEntry = Math.max(cursor.entry, oldest);
    // Every evicted entry lies before `oldest`, so the log lines missed are those evicted after the cursor.
    const missed = cursor.entry < oldest ? this.evictedLogLines - cursor.line : 0;
    if (this.entries > this.takenUpTo) this.takenUpTo = this.entries;
    return { lines: this.range(fromEntry - oldest, this.count), missed, cursor: this.cursor };
  }

  private append(text: string, marker: boolean): void {
    while (this.count > 0 && (this.count >= this.maxLines || this.charCount + text.length > this.maxChars)) {
      this.evictOldest();
    }
    const slot = (this.head + this.count) % this.maxLines;
    this.texts[slot] = text;
    this.markers[slot] = marker ? 1 : 0;
    this.count += 1;
    this.charCount += text.length;
    this.entries += 1;
  }

  private evictOldest(): void {
    const slot = this.head;
    const entry = this.entries - this.count;
    const text = this.texts[slot] ?? '';
    if (this.markers[slot] === 0) {
      this.evictedLogLines += 1;
      if (entry >= this.takenUpTo) this.droppedLines += 1;
    }
    this.texts[slot] = ''; // let the string be collected
    this.charCount -= text.length;
    this.head = (this.head + 1) % this.maxLines;
    this.count -= 1;
  }

  /** Kept entries from index `from` to `to` (0 = oldest kept). */
  private range(from: number, to: number): RingLine[] {
    const out: RingLine[] = [];
    for (let i = from; i < to; i++) {
      const slot = (this.head + i) % this.maxLines;
      out.push({ text: this.texts[slot] ?? '', marker: this.markers[slot] === 1 });
    }
    return out;
  }
}
