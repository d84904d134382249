import { describe, expect, it } from '@jest/globals';
import { LineRing, type RingLine } from '../../src/tails/ring-buffer.js';
import {
  finalCounts,
  refreshTailView,
  startTailView,
  type TailViewOptions,
  type TailViewState,
} from '../../src/tails/tail-view.js';

// Each line costs its length plus a newline; a budget of 100 holds ten 9-character lines.
const options: TailViewOptions = { budget: 100, measure: (l) => l.text.length + 1 };
const texts = (lines: readonly RingLine[]) => lines.map((l) => l.text);
const line = (i: number) => `line-${String(i).padStart(4, '0')}`; // 9 characters

function ringWith(count: number, from = 0): LineRing {
  const ring = new LineRing({ maxLines: 1000, maxChars: 100_000, maxLineLength: 200 });
  for (let i = from; i < from + count; i++) ring.push(line(i));
  return ring;
}

describe('refreshTailView', () => {
  it('says there is nothing to do when no line arrived', () => {
    const ring = ringWith(0);
    const update = refreshTailView(ring, startTailView(), options);
    expect(update.action).toBe('none');
    expect(update.counts).toEqual({ seen: 0, shown: 0, neverShown: 0 });
  });

  it('grows the window while lines fit, counting every line as shown', () => {
    const ring = ringWith(3);
    let state = refreshTailView(ring, startTailView(), options).state;
    ring.push(line(3));
    const update = refreshTailView(ring, state, options);
    state = update.state;
    expect(update.action).toBe('update');
    expect(texts(update.lines)).toEqual([line(0), line(1), line(2), line(3)]);
    expect(update.counts).toEqual({ seen: 4, shown: 4, neverShown: 0 });
    expect(state.used).toBe(40);
  });

  it('shows the newest lines of a burst that does not fit, the rest never shown', () => {
    const ring = ringWith(25);
    const update = refreshTailView(ring, startTailView(), options);
    expect(update.action).toBe('update');
    expect(texts(update.lines)).toEqual(Array.from({ length: 10 }, (_, i) => line(15 + i)));
    expect(update.counts).toEqual({ seen: 25, shown: 10, neverShown: 15 });
  });

  it('freezes a full-enough message and starts a new one when new lines do not fit beside it', () => {
    const ring = ringWith(8); // 80 of 100 used: full enough (>= 75)
    const first = refreshTailView(ring, startTailView(), options);
    for (let i = 8; i < 11; i++) ring.push(line(i));
    const next = refreshTailView(ring, first.state, options);
    expect(next.action).toBe('rollover');
    expect(texts(next.lines)).toEqual([line(8), line(9), line(10)]);
    expect(next.state.message).toBe(1);
    expect(next.counts).toEqual({ seen: 11, shown: 11, neverShown: 0 });
    // The frozen message keeps what it showed: the previous state's window.
    expect(texts(first.state.window)).toHaveLength(8);
  });

  it('scrolls a message that is not full enough instead of freezing it', () => {
    const ring = ringWith(2); // 20 of 100 used
    const first = refreshTailView(ring, startTailView(), options);
    for (let i = 2; i < 12; i++) ring.push(line(i));
    const next = refreshTailView(ring, first.state, options);
    expect(next.action).toBe('update');
    expect(texts(next.lines)).toEqual(Array.from({ length: 10 }, (_, i) => line(2 + i)));
    expect(next.state.message).toBe(0);
    expect(next.counts).toEqual({ seen: 12, shown: 12, neverShown: 0 });
  });

  it('after maxMessages messages only scrolls the last one', () => {
    const ring = ringWith(0);
    const opts = { ...options, maxMessages: 2 };
    let state: TailViewState = startTailView();
    const actions: string[] = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 9; i++) ring.push(line(round * 9 + i));
      const update = refreshTailView(ring, state, opts);
      actions.push(update.action);
      state = update.state;
    }
    expect(actions).toEqual(['update', 'rollover', 'update', 'update']);
    expect(state.message).toBe(1);
    expect(state.used).toBeLessThanOrEqual(100);
  });

  it('counts lines evicted from the ring before a refresh as never shown', () => {
    const ring = new LineRing({ maxLines: 5, maxChars: 1000, maxLineLength: 50 });
    for (let i = 0; i < 12; i++) ring.push(line(i));
    const update = refreshTailView(ring, startTailView(), options);
    expect(texts(update.lines)).toEqual([line(7), line(8), line(9), line(10), line(11)]);
    expect(update.counts).toEqual({ seen: 12, shown: 5, neverShown: 7 });
  });

  it('final counts include lines that arrived after the last refresh', () => {
    const ring = ringWith(3);
    const { state } = refreshTailView(ring, startTailView(), options);
    ring.push(line(3));
    ring.push(line(4));
    expect(finalCounts(ring, state)).toEqual({ seen: 5, shown: 3, neverShown: 2 });
  });

  it('shows gap markers without counting them as lines', () => {
    const ring = ringWith(2);
    ring.pushMarker('~ gap ~');
    ring.push(line(2));
    const update = refreshTailView(ring, startTailView(), options);
    expect(update.lines.map((l) => l.marker)).toEqual([false, false, true, false]);
    expect(update.counts).toEqual({ seen: 3, shown: 3, neverShown: 0 });
  });

  it('skips a line that could never fit and counts it as never shown', () => {
    const ring = ringWith(1);
    ring.push('x'.repeat(150));
    ring.push(line(1));
    const update = refreshTailView(ring, startTailView(), options);
    expect(texts(update.lines)).toEqual([line(0), line(1)]);
    expect(update.counts).toEqual({ seen: 3, shown: 2, neverShown: 1 });
  });

  it('measures only about a budget of lines however many arrived', () => {
    const ring = ringWith(900);
    let calls = 0;
    const counted: TailViewOptions = {
      budget: 100,
      measure: (l) => {
        calls += 1;
        return l.text.length + 1;
      },
    };
    refreshTailView(ring, startTailView(), counted);
    expect(calls).toBeLessThanOrEqual(11);
  });

  it('refreshing again from an older state gives the same result (safe to retry a failed Slack call)', () => {
    const ring = ringWith(4);
    const start = startTailView();
    const a = refreshTailView(ring, start, options);
    const b = refreshTailView(ring, start, options);
    expect(b).toEqual(a);
  });
});
