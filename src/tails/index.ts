/** The log-tail core: ring buffer, stream follower, Slack call budget and message model (no Slack code). */
export {
  type AcquireRequest,
  BudgetError,
  type BudgetOptions,
  type BudgetStats,
  SlackBudget,
  type SlackMethod,
} from './budget.js';
export { RateGate } from './rate-gate.js';
export {
  LineRing,
  type LineRingOptions,
  RING_START,
  type RingCursor,
  type RingLine,
  type RingTake,
  truncateLine,
} from './ring-buffer.js';
export {
  describeStreamError,
  releaseEnded,
  stopByUser,
  stopReasonOf,
  TailAbort,
  type TailStopReason,
} from './stop-reason.js';
export { runTailStream, type TailEvent, type TailLogSource, type TailStreamOptions } from './tail-stream.js';
export {
  finalCounts,
  refreshTailView,
  startTailView,
  type TailAction,
  type TailCounts,
  type TailViewOptions,
  type TailViewState,
  type TailViewUpdate,
} from './tail-view.js';
