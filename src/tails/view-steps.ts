/**
 * The pure steps between a tail's ring and its messages: the view a resumed
 * tail starts from, the counts a view stands for, when a refresh leaves
 * lines out, which Slack call an action needs, the gap markers, and the
 * refresh plan that turns a pointless rollover into a scroll. Which call an
 * action needs is named after Slack's methods, as the budget counts them.
 */
import { formatSpan } from '../format/duration.js';
import type { TailWrite } from './messenger.js';
import type { ShownLine } from './progress.js';
import type { ReplayVerdict } from './replay-filter.js';
import { type LineRing, RING_START } from './ring-buffer.js';
import type { TailEvent } from './tail-stream.js';
import {
  refreshTailView,
  type TailAction,
  type TailCounts,
  type TailViewOptions,
  type TailViewState,
  type TailViewUpdate,
} from './tail-view.js';

/** A view whose current message already shows `window` (a resumed tail keeps editing that message). */
export function viewFromWindow(
  window: readonly ShownLine[],
  part: number,
  measure: (line: { text: string }) => number,
): TailViewState {
  const lines = window.map((l) => ({ text: l.text, marker: l.marker }));
  const costs = lines.map(measure);
  return {
    cursor: RING_START,
    window: lines,
    costs,
    used: costs.reduce((a, b) => a + b, 0),
    message: part,
    shown: 0,
  };
}

/** The counts a view stands for (lines taken from the ring so far). */
export function countsOf(view: TailViewState): TailCounts {
  return { seen: view.cursor.line, shown: view.shown, neverShown: view.cursor.line - view.shown };
}

/** True when going from `before` to `after` leaves some of the log lines in between unshown. */
export function skips(before: TailViewState, after: TailViewState): boolean {
  return after.shown - before.shown < after.cursor.line - before.cursor.line;
}

/** The write an action needs: a rollover posts a new message, anything else edits the live one. */
export function writeOf(action: TailAction): TailWrite {
  return action === 'rollover' ? 'post' : 'edit';
}

/** What became of the history an API sent again on reconnect (see src/tails/replay-filter.ts). */
function replayNote(replay: ReplayVerdict | undefined): string {
  if (!replay) return '';
  if (replay.kind === 'overlap')
    return `; ${replay.dropped} line(s) the API sent again were dropped, nothing is missing`;
  return `; the API sent ${replay.dropped} older line(s) without the last ones shown here, not shown; lines may be missing`;
}

/** The marker line for a dropped or resumed stream. */
export function markerText(event: TailEvent): string {
  if (event.kind === 'resumed') return `── log stream reconnected${replayNote(event.replay)} ──`;
  return `── log stream dropped (${event.cause}); reconnecting in ${formatSpan(Math.max(1000, event.retryInMs))}, lines written until then are lost ──`;
}

/**
 * The next refresh. While lines come faster than messages can show them
 * (this refresh, or the last one applied, leaves lines out), a rollover
 * becomes a scroll: a new message would hold only a sample, at the price of
 * a post and a freeze, and the freeze's update slot would slow every tail.
 */
export function planRefresh(
  ring: LineRing,
  view: TailViewState,
  options: TailViewOptions,
  lastSkipped: boolean,
): TailViewUpdate {
  const update = refreshTailView(ring, view, options);
  if (update.action !== 'rollover') return update;
  if (!lastSkipped && !skips(view, update.state)) return update;
  return scrollOnly(ring, view, options);
}

/** The refresh as a scroll of the current message, never a rollover. */
export function scrollOnly(ring: LineRing, view: TailViewState, options: TailViewOptions): TailViewUpdate {
  return refreshTailView(ring, view, { ...options, maxMessages: view.message + 1 });
}
