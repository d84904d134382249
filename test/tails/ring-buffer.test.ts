import { describe, expect, it } from '@jest/globals';
import { LineRing, RING_START, truncateLine } from '../../src/tails/ring-buffer.js';

const texts = (lines: Array<{ text: string }>) => lines.map((l) => l.text);

describe('LineRing bounds', () => {
  it('keeps at most maxLines entries over a million pushes, newest last', () => {
    const ring = new LineRing({ maxLines: 500, maxChars: 1_000_000, maxLineLength: 200 });
    for (let i = 0; i < 1_000_000; i++) ring.push(`line ${i}`);
    expect(ring.size).toBe(500);
    expect(ring.seen).toBe(1_000_000);
    expect(ring.dropped).toBe(999_500);
    const kept = texts(ring.snapshot());
    expect(kept[0]).toBe('line 999500');
    expect(kept.at(-1)).toBe('line 999999');
  });

  it('keeps at most maxChars characters over a million pushes of mixed lengths', () => {
    const ring = new LineRing({ maxLines: 100_000, maxChars: 10_000, maxLineLength: 1_000 });
    let maxSeen = 0;
    for (let i = 0; i < 1_000_000; i++) {
      ring.push('x'.repeat(i % 997));
      maxSeen = Math.max(maxSeen, ring.chars);
    }
    expect(maxSeen).toBeLessThanOrEqual(10_000);
    const sum = ring.snapshot().reduce((n, l) => n + l.text.length, 0);
    expect(sum).toBe(ring.chars);
    expect(ring.size).toBeGreaterThan(0);
    expect(ring.seen).toBe(1_000_000);
    expect(ring.dropped).toBe(1_000_000 - ring.size);
  });

  it('cuts long lines to maxLineLength with an ellipsis and keeps surrogate pairs whole', () => {
    const ring = new LineRing({ maxLines: 10, maxChars: 100, maxLineLength: 8 });
    ring.push('0123456789');
    ring.push('short');
    expect(texts(ring.snapshot())).toEqual(['0123456…', 'short']);
    expect(truncateLine('abcdef😀xyz', 8)).toBe('abcdef…');
    expect(truncateLine('abc', 8)).toBe('abc');
  });

  it('evicts several short lines to make room for one long line', () => {
    const ring = new LineRing({ maxLines: 10, maxChars: 10, maxLineLength: 10 });
    for (const l of ['aa', 'bb', 'cc', 'dd']) ring.push(l);
    ring.push('eeeeeeee');
    expect(texts(ring.snapshot())).toEqual(['dd', 'eeeeeeee']);
    expect(ring.chars).toBe(10);
  });

  it('rejects bounds that cannot work', () => {
    expect(() => new LineRing({ maxLines: 0, maxChars: 10, maxLineLength: 5 })).toThrow(RangeError);
    expect(() => new LineRing({ maxLines: 5, maxChars: 10, maxLineLength: 11 })).toThrow('maxLineLength');
  });
});

describe('LineRing readers', () => {
  it('latest(n) gives the newest n, oldest first', () => {
    const ring = new LineRing({ maxLines: 5, maxChars: 100, maxLineLength: 10 });
    for (let i = 0; i < 8; i++) ring.push(`l${i}`);
    expect(texts(ring.latest(2))).toEqual(['l6', 'l7']);
    expect(texts(ring.latest(99))).toEqual(['l3', 'l4', 'l5', 'l6', 'l7']);
    expect(ring.latest(0)).toEqual([]);
  });

  it('takeSince hands out only new lines and reports the evicted ones as missed', () => {
    const ring = new LineRing({ maxLines: 3, maxChars: 100, maxLineLength: 10 });
    ring.push('a');
    ring.push('b');
    const first = ring.takeSince(RING_START);
    expect(texts(first.lines)).toEqual(['a', 'b']);
    expect(first.missed).toBe(0);
    expect(ring.takeSince(first.cursor)).toEqual({ lines: [], missed: 0, cursor: first.cursor });

    for (const l of ['c', 'd', 'e', 'f']) ring.push(l);
    const second = ring.takeSince(first.cursor);
    expect(texts(second.lines)).toEqual(['d', 'e', 'f']);
    expect(second.missed).toBe(1); // 'c' was evicted before anyone took it
    expect(ring.dropped).toBe(1); // 'a' and 'b' were taken before they went
    expect(ring.hasNews(second.cursor)).toBe(false);
  });

  it('counts markers as entries but never as seen, dropped or missed lines', () => {
    const ring = new LineRing({ maxLines: 3, maxChars: 100, maxLineLength: 40 });
    ring.push('a');
    ring.pushMarker('— stream dropped, reconnecting —');
    ring.push('b');
    ring.push('c');
    ring.push('d');
    expect(ring.seen).toBe(4);
    const take = ring.takeSince(RING_START);
    expect(take.lines).toEqual([
      { text: 'b', marker: false },
      { text: 'c', marker: false },
      { text: 'd', marker: false },
    ]);
    expect(take.missed).toBe(1); // 'a' only; the evicted marker is not a log line
    expect(ring.dropped).toBe(1);
    expect(take.cursor).toEqual({ entry: 5, line: 4 });
  });

  it('a second reader learns what it missed while a first one kept up', () => {
    const ring = new LineRing({ maxLines: 2, maxChars: 100, maxLineLength: 10 });
    let fast = RING_START;
    for (let i = 0; i < 10; i++) {
      ring.push(`l${i}`);
      fast = ring.takeSince(fast).cursor;
    }
    expect(ring.dropped).toBe(0);
    const slow = ring.takeSince(RING_START);
    expect(texts(slow.lines)).toEqual(['l8', 'l9']);
    expect(slow.missed).toBe(8);
  });

  it('rejects a cursor from the future', () => {
    const ring = new LineRing({ maxLines: 2, maxChars: 100, maxLineLength: 10 });
    expect(() => ring.takeSince({ entry: 1, line: 1 })).toThrow(RangeError);
  });
});
