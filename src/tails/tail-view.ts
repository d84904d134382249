/**
 * What one tail message should show, without knowing Slack: the newest lines
 * that fit a character budget (the Slack layer measures, since only it knows
 * the escaping), the counts for the footer, and when to start a new message.
 *
 * Rollover rule: a message is *full enough* once its lines use at least
 * `rolloverFill` (default 3/4) of the budget. When new lines do not fit
 * beside the lines a full-enough message shows, the message is frozen as it
 * stands (it keeps every line it showed) and the new lines start the next
 * message. A message that is not yet full enough scrolls instead (oldest
 * lines leave it), so a burst after a quiet spell does not freeze a
 * near-empty message. After `maxMessages` messages the last one only
 * scrolls, so a very busy Vessel cannot flood the thread.
 *
 * Counting: `seen` log lines were read; `shown` were in some rendered window;
 * the rest are never shown (evicted from the ring, or pushed out by newer
 * lines before any render). Markers (gaps) are shown but never counted.
 *
 * Suggested loop for the Slack layer: when `ring.hasNews(state.cursor)`,
 * compute a refresh, acquire the budget slot for its action (an edit or,
 * for a rollover, a post), compute again with the newest lines and
 * apply it if the action is unchanged; keep the returned state only after
 * the Slack call succeeded (refreshing from an older state is safe).
 */
import { type LineRing, RING_START, type RingCursor, type RingLine } from './ring-buffer.js';

export interface TailViewOptions {
  /** Characters a message may spend on lines, e.g. 2800 for a section after escaping. */
  budget: number;
  /** The rendered cost of one line, separator included (e.g. its escaped length + 1). */
  measure(line: RingLine): number;
  /** Messages one tail may start (default 10); the last then scrolls in place. */
  maxMessages?: number;
  /** Share of the budget a message must use before it is frozen rather than scrolled (default 0.75). */
  rolloverFill?: number;
}

/** The current message of one tail; treat as immutable. */
export interface TailViewState {
  readonly cursor: RingCursor;
  /** What the current message shows, oldest first. */
  readonly window: readonly RingLine[];
  readonly costs: readonly number[];
  /** Sum of `costs`. */
  readonly used: number;
  /** 0-based number of the current message. */
  readonly message: number;
  /** Log lines that were in some rendered window. */
  readonly shown: number;
}

export interface TailCounts {
  seen: number;
  shown: number;
  neverShown: number;
}

/** `none`: nothing new. `update`: edit the current message. `rollover`: leave it, post a new one. */
export type TailAction = 'none' | 'update' | 'rollover';

export interface TailViewUpdate {
  action: TailAction;
  /** What the current (after a rollover: the new) message should show. */
  lines: RingLine[];
  /** The state once this update is applied. */
  state: TailViewState;
  counts: TailCounts;
}

/** The state of a tail whose first message shows nothing yet. */
export function startTailView(cursor: RingCursor = RING_START): TailViewState {
  return { cursor, window: [], costs: [], used: 0, message: 0, shown: 0 };
}

/** The next update of the tail message from the lines that arrived since `state`. */
export function refreshTailView(
  ring: LineRing,
  state: TailViewState,
  options: TailViewOptions,
): TailViewUpdate {
  if (!ring.hasNews(state.cursor)) {
    return { action: 'none', lines: [...state.window], state, counts: countsOf(state) };
  }
  const { budget } = options;
  const take = ring.takeSince(state.cursor);
  // Only the newest lines can fit, so measure from the end and stop once a budget's worth is found.
  const fresh: Array<{ line: RingLine; cost: number }> = [];
  let freshCost = 0;
  for (let i = take.lines.length - 1; i >= 0 && freshCost <= budget; i--) {
    const line = take.lines[i] as RingLine;
    const cost = options.measure(line);
    if (cost > budget) continue; // cannot be shown in any message; counted as never shown
    fresh.push({ line, cost });
    freshCost += cost;
  }
  const fullEnough = state.used >= budget * (options.rolloverFill ?? 0.75);
  const rollover =
    state.window.length > 0 &&
    state.used + freshCost > budget &&
    fullEnough &&
    state.message + 1 < (options.maxMessages ?? 10);

  // Newest first: the new lines, then (unless rolling over) the lines the message already shows.
  const older = rollover
    ? []
    : state.window.map((line, i) => ({ line, cost: state.costs[i] ?? 0 })).reverse();
  const kept: Array<{ line: RingLine; cost: number }> = [];
  let used = 0;
  let newlyShown = 0;
  for (const [i, item] of [...fresh, ...older].entries()) {
    if (used + item.cost > budget) break;
    kept.push(item);
    used += item.cost;
    if (i < fresh.length && !item.line.marker) newlyShown += 1;
  }
  kept.reverse();
  const next: TailViewState = {
    cursor: take.cursor,
    window: kept.map((k) => k.line),
    costs: kept.map((k) => k.cost),
    used,
    message: rollover ? state.message + 1 : state.message,
    shown: state.shown + newlyShown,
  };
  return {
    action: rollover ? 'rollover' : 'update',
    lines: [...next.window],
    state: next,
    counts: countsOf(next),
  };
}

/** Counts for the final message: lines read but never rendered (including any not yet taken) are never shown. */
export function finalCounts(ring: LineRing, state: TailViewState): TailCounts {
  return { seen: ring.seen, shown: state.shown, neverShown: ring.seen - state.shown };
}

function countsOf(state: TailViewState): TailCounts {
  return { seen: state.cursor.line, shown: state.shown, neverShown: state.cursor.line - state.shown };
}
