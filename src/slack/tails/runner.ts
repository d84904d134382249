/**
 * One tail's loop on the replica that owns it. The stream side reads the log
 * without pause into a LineRing; the refresh side edits the tail message
 * whenever the ring has news and the workspace budget grants a slot, rolling
 * over to a new message in the thread when one is full. A refresh that Slack
 * refuses with a 429 is simply tried again later from the same view state,
 * so no line is lost to rate limiting. At the end the message says why the
 * tail stopped and what was seen; `detach` leaves all that to whoever
 * resumes the tail.
 */
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { SlackBudget, SlackMethod } from '../../tails/budget.js';
import { LineRing, RING_START } from '../../tails/ring-buffer.js';
import type { TailAbort, TailStopReason } from '../../tails/stop-reason.js';
import { runTailStream, type TailEvent, type TailLogSource } from '../../tails/tail-stream.js';
import {
  finalCounts,
  refreshTailView,
  type TailAction,
  type TailCounts,
  type TailViewOptions,
  type TailViewState,
  type TailViewUpdate,
} from '../../tails/tail-view.js';
import { MAX_LINE_CHARS } from '../render/log-lines.js';
import {
  renderFinalTail,
  renderFrozenTail,
  renderLiveTail,
  TAIL_LINES_BUDGET,
  type TailSubject,
  tailLineCost,
} from '../render/tail-message.js';
import type { ShownLine, TailProgress } from './progress.js';
import { SlackRateLimited, type TailSlack } from './slack-calls.js';

/** Which tail, where: the record fields the loop needs. */
export interface TailTarget extends TailSubject {
  id: string;
  channel: string;
  threadTs?: string;
  /** When the tail was started (the maximum duration counts from here, across takeovers). */
  startedAt: number;
}

/** Tunables shared by every tail of a service. */
export interface TailLimits {
  maxDurationMs: number;
  /** Reconnect backoff of the log stream. */
  backoff: { initialMs: number; maxMs: number };
  /** Consecutive fruitless reconnects before giving up (default: none, until the max duration). */
  maxReconnects?: number;
  /** Recent lines shown when a tail starts (a resumed tail asks for none). */
  initialTailLines: number;
  /** Bounds of each tail's ring buffer. */
  ring: { maxLines: number; maxChars: number };
  /** Messages one tail may post before its last one only scrolls. */
  maxMessages: number;
}

export interface TailRunnerOptions {
  target: TailTarget;
  replicaId: string;
  /** Where to carry on from: a fresh tail's first message, or a taken-over tail's state. */
  progress: TailProgress;
  /** Set when taking over: a marker says so and no recent lines are asked for again. */
  takenOverBy?: string;
  source: TailLogSource;
  slack: TailSlack;
  budget: SlackBudget;
  clock: Clock;
  logger: Logger;
  limits: TailLimits;
  /** Jitter for the stream's reconnect backoff (default Math.random). */
  random?: () => number;
  /** Persists progress after each Slack call (errors are logged, the tail goes on). */
  save(progress: TailProgress): Promise<void>;
  /** Marks the tail stopped in the store, after the final message. */
  finish(progress: TailProgress, reason: TailStopReason): Promise<void>;
}

/** How a runner ended: stopped (final message written) or detached (left for a resume). */
export type RunnerEnd = 'stopped' | 'detached';

/** A part left behind by a rollover, still to be rewritten without its Stop button. */
interface Freeze {
  ts: string;
  part: number;
  lines: ShownLine[];
}

const SLACK_RETRY_MAX_MS = 30_000;
const FINAL_ATTEMPTS = 5;

/** Follows one tail until stopped, detached or ended by the stream; see the module comment. */
export class TailRunner {
  readonly done: Promise<RunnerEnd>;
  private readonly o: TailRunnerOptions;
  private readonly ring: LineRing;
  private readonly viewOptions: TailViewOptions;
  private readonly base: { seen: number; neverShown: number };
  private readonly streamAbort = new AbortController();
  private readonly refreshAbort = new AbortController();
  private readonly finalAbort = new AbortController();
  private readonly log: Logger;
  private view: TailViewState;
  private messageTs: string;
  private freezes: Freeze[] = [];
  private freezing: Promise<void> = Promise.resolve();
  private freezerRunning = false;
  /** The last applied refresh left lines out (lines come faster than messages show them). */
  private skipping = false;
  private waiter: (() => void) | undefined;
  private detached = false;

  constructor(options: TailRunnerOptions) {
    this.o = options;
    const { limits, progress } = options;
    this.log = options.logger.child({ tail: options.target.id });
    this.ring = new LineRing({ ...limits.ring, maxLineLength: MAX_LINE_CHARS });
    this.viewOptions = { budget: TAIL_LINES_BUDGET, measure: tailLineCost, maxMessages: limits.maxMessages };
    this.base = { seen: progress.seen, neverShown: progress.neverShown };
    this.view = viewFromWindow(progress.window, progress.part);
    this.messageTs = progress.messageTs;
    if (options.takenOverBy) {
      this.ring.pushMarker(
        `── resumed by replica ${options.takenOverBy}; lines written while no replica followed are lost ──`,
      );
    }
    this.done = this.run();
  }

  /** Ends the tail with `reason` (the final message names it). A no-op once the tail is ending. */
  stop(reason: TailAbort): void {
    if (!this.streamAbort.signal.aborted) this.streamAbort.abort(reason);
  }

  /** Stops following here without a final message or a store update (another replica resumes it). */
  detach(): void {
    this.detached = true;
    if (!this.streamAbort.signal.aborted) this.streamAbort.abort(new Error('detached'));
    this.refreshAbort.abort();
    this.finalAbort.abort();
  }

  /** The progress as the store should hold it now. */
  progress(): TailProgress {
    const counts = this.total(countsOf(this.view));
    return {
      owner: this.o.replicaId,
      messageTs: this.messageTs,
      part: this.view.message,
      window: this.view.window.map((l) => ({ text: l.text, marker: l.marker })),
      seen: counts.seen,
      neverShown: counts.neverShown,
    };
  }

  private async run(): Promise<RunnerEnd> {
    const refreshing = this.refreshLoop();
    let reason = await this.follow();
    this.refreshAbort.abort();
    this.wake();
    await refreshing;
    await this.freezing;
    try {
      if (this.detached) return 'detached';
      if (reason.kind === 'max_duration') {
        reason = { kind: 'max_duration', afterMs: this.o.clock.now() - this.o.target.startedAt };
      }
      await this.finalize(reason);
      return this.detached ? 'detached' : 'stopped';
    } finally {
      this.o.budget.forget(this.o.target.id);
      this.o.budget.forget(`${this.o.target.id}/freeze`);
    }
  }

  private async follow(): Promise<TailStopReason> {
    const { target, limits, clock } = this.o;
    try {
      return await runTailStream({
        client: this.o.source,
        env: target.env,
        vessel: target.vessel,
        ...(target.container ? { container: target.container } : {}),
        clock,
        signal: this.streamAbort.signal,
        // Counted from the tail's start, so a takeover does not extend it.
        maxDurationMs: Math.max(0, target.startedAt + limits.maxDurationMs - clock.now()),
        backoff: limits.backoff,
        ...(limits.maxReconnects !== undefined ? { maxReconnects: limits.maxReconnects } : {}),
        initialTailLines: this.o.takenOverBy ? 0 : limits.initialTailLines,
        ...(this.o.random ? { random: this.o.random } : {}),
        onLine: (line) => {
          this.ring.push(line);
          if (this.waiter) this.wake();
        },
        onEvent: (event) => {
          this.ring.pushMarker(markerText(event));
          this.wake();
        },
      });
    } catch (error) {
      this.log.error('a log tail failed', { error });
      return { kind: 'api_error', status: 0, message: 'the tail failed unexpectedly (see the bot logs)' };
    }
  }

  /** Edits the message whenever there is news and a slot. */
  private async refreshLoop(): Promise<void> {
    const signal = this.refreshAbort.signal;
    let failures = 0;
    while (!signal.aborted) {
      try {
        if (this.ring.hasNews(this.view.cursor)) await this.refreshOnce(signal);
        else await this.news(signal);
        failures = 0;
      } catch (error) {
        if (signal.aborted) break;
        failures += 1;
        this.log.warn('a tail refresh failed; trying again', { error, failures });
        try {
          await this.o.clock.sleep(retryDelay(failures), signal);
        } catch {
          break;
        }
      }
    }
  }

  private async refreshOnce(signal: AbortSignal): Promise<void> {
    const { budget, slack, target } = this.o;
    const first = this.plan();
    if (first.action === 'none') return;
    const method = methodOf(first.action);
    await budget.acquire({ method, channel: target.channel, consumer: target.id, signal });
    // The newest lines, unless they now need the other call: then the slot goes to the older refresh.
    const newest = this.plan();
    const update = methodOf(newest.action) === method ? newest : first;
    const message = renderLiveTail(this.input(update.lines, this.total(update.counts)));
    try {
      if (update.action === 'rollover') {
        const ts = await slack.post(target.channel, target.threadTs, message);
        this.freezes.push({ ts: this.messageTs, part: this.view.message, lines: [...this.view.window] });
        this.messageTs = ts;
        this.kickFreezer();
      } else {
        await slack.update(target.channel, this.messageTs, message);
      }
    } catch (error) {
      if (!(error instanceof SlackRateLimited)) throw error;
      budget.rateLimited(error.method, error.retryAfterMs);
      return; // the view is unchanged: the next refresh carries these lines too
    }
    this.skipping = skips(this.view, update.state);
    this.view = update.state;
    await this.save();
  }

  /**
   * The next refresh. While lines come faster than messages can show them
   * (this refresh or the last one leaves lines out), a rollover becomes a
   * scroll: a new message would hold only a sample, at the price of a post
   * and a freeze, and the freeze's update slot would slow every tail down.
   */
  private plan(): TailViewUpdate {
    const update = refreshTailView(this.ring, this.view, this.viewOptions);
    if (update.action !== 'rollover') return update;
    if (!this.skipping && !skips(this.view, update.state)) return update;
    return refreshTailView(this.ring, this.view, { ...this.viewOptions, maxMessages: this.view.message + 1 });
  }

  /**
   * Freezes left-behind parts beside the refreshes, as a consumer of its own,
   * so a tail's next refresh never waits behind its freeze.
   */
  private kickFreezer(): void {
    if (this.freezerRunning) return;
    this.freezerRunning = true;
    this.freezing = this.freezeLoop();
  }

  private async freezeLoop(): Promise<void> {
    const signal = this.refreshAbort.signal;
    let failures = 0;
    // The check and the flag reset share one synchronous step, so a freeze queued meanwhile is never stranded.
    while (this.freezes.length > 0 && !signal.aborted) {
      try {
        await this.freezeOne(signal, `${this.o.target.id}/freeze`);
        failures = 0;
      } catch (error) {
        if (signal.aborted) break;
        failures += 1;
        this.log.warn('could not freeze a part of a tail; trying again', { error, failures });
        await this.o.clock.sleep(retryDelay(failures), signal).catch(() => undefined);
      }
    }
    this.freezerRunning = false;
  }

  private async freezeOne(signal: AbortSignal, consumer = this.o.target.id): Promise<void> {
    const freeze = this.freezes[0] as Freeze;
    const message = renderFrozenTail({
      ...this.input(freeze.lines, this.total(countsOf(this.view))),
      part: freeze.part + 1,
    });
    await this.call(
      'chat.update',
      signal,
      () => this.o.slack.update(this.o.target.channel, freeze.ts, message),
      consumer,
    );
    this.freezes.shift();
  }

  /** The last message: remaining parts frozen, the newest lines scrolled in, the reason and counts. */
  private async finalize(reason: TailStopReason): Promise<void> {
    const signal = this.finalAbort.signal;
    // Scroll rather than roll over: the final state belongs in the message people are looking at.
    const last = refreshTailView(this.ring, this.view, {
      ...this.viewOptions,
      maxMessages: this.view.message + 1,
    });
    this.view = last.state;
    const counts = this.total(finalCounts(this.ring, this.view));
    const message = renderFinalTail({ ...this.input(this.view.window, counts), reason });
    while (this.freezes.length > 0) {
      // A part that cannot be frozen keeps a dead Stop button; the final message matters more.
      if (!(await this.persist(() => this.freezeOne(signal), signal))) this.freezes.shift();
      if (signal.aborted) return;
    }
    const final = () =>
      this.call('chat.update', signal, () =>
        this.o.slack.update(this.o.target.channel, this.messageTs, message),
      );
    if (!(await this.persist(final, signal))) {
      if (signal.aborted) return;
      this.log.error('could not write the final state of a tail');
    }
    const progress: TailProgress = {
      ...this.progress(),
      seen: counts.seen,
      neverShown: counts.neverShown,
      ended: { reason, at: this.o.clock.now() },
    };
    try {
      await this.o.finish(progress, reason);
    } catch (error) {
      this.log.error('could not record that a tail stopped', { error });
    }
  }

  /** Tries `step` a few times with backoff (non-429 failures); false when it never worked. */
  private async persist(step: () => Promise<void>, signal: AbortSignal): Promise<boolean> {
    for (let attempt = 1; attempt <= FINAL_ATTEMPTS && !signal.aborted; attempt++) {
      try {
        await step();
        return true;
      } catch (error) {
        if (signal.aborted) return false;
        this.log.warn('a final tail update failed', { error, attempt });
        if (attempt < FINAL_ATTEMPTS)
          await this.o.clock.sleep(retryDelay(attempt), signal).catch(() => undefined);
      }
    }
    return false;
  }

  /** A budgeted call that waits out 429s (for writes whose content does not change while waiting). */
  private async call(
    method: SlackMethod,
    signal: AbortSignal,
    fn: () => Promise<void>,
    consumer = this.o.target.id,
  ): Promise<void> {
    const { budget } = this.o;
    for (;;) {
      await budget.acquire({ method, channel: this.o.target.channel, consumer, signal });
      try {
        return await fn();
      } catch (error) {
        if (!(error instanceof SlackRateLimited)) throw error;
        budget.rateLimited(error.method, error.retryAfterMs);
      }
    }
  }

  private async save(): Promise<void> {
    try {
      await this.o.save(this.progress());
    } catch (error) {
      this.log.warn('could not save the progress of a tail', { error });
    }
  }

  private input(lines: readonly ShownLine[], counts: { seen: number; neverShown: number }) {
    const { target } = this.o;
    return {
      tailId: target.id,
      env: target.env,
      vessel: target.vessel,
      ...(target.container ? { container: target.container } : {}),
      lines,
      seen: counts.seen,
      neverShown: counts.neverShown,
    };
  }

  private total(counts: Pick<TailCounts, 'seen' | 'neverShown'>): { seen: number; neverShown: number } {
    return { seen: this.base.seen + counts.seen, neverShown: this.base.neverShown + counts.neverShown };
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  /** Resolves at the next line or event; rejects when `signal` aborts. */
  private news(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiter = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
    });
  }
}

/** A view whose current message already shows `window` (a resumed tail keeps editing that message). */
function viewFromWindow(window: readonly ShownLine[], part: number): TailViewState {
  const lines = window.map((l) => ({ text: l.text, marker: l.marker }));
  const costs = lines.map(tailLineCost);
  return {
    cursor: RING_START,
    window: lines,
    costs,
    used: costs.reduce((a, b) => a + b, 0),
    message: part,
    shown: 0,
  };
}

function countsOf(view: TailViewState): TailCounts {
  return { seen: view.cursor.line, shown: view.shown, neverShown: view.cursor.line - view.shown };
}

/** True when going from `before` to `after` leaves some of the log lines in between unshown. */
function skips(before: TailViewState, after: TailViewState): boolean {
  return after.shown - before.shown < after.cursor.line - before.cursor.line;
}

function methodOf(action: TailAction): SlackMethod {
  return action === 'rollover' ? 'chat.postMessage' : 'chat.update';
}

function markerText(event: TailEvent): string {
  if (event.kind === 'resumed') return '── log stream reconnected ──';
  const seconds = Math.max(1, Math.round(event.retryInMs / 1000));
  return `── log stream dropped (${event.cause}); reconnecting in ${seconds} s, lines written until then are lost ──`;
}

function retryDelay(failures: number): number {
  return Math.min(SLACK_RETRY_MAX_MS, 1000 * 2 ** Math.max(0, failures - 1));
}
