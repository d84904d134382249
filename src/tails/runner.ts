/**
 * One tail's loop on the replica that owns it. The stream side reads the log
 * without pause into a LineRing; the refresh side edits the tail message
 * whenever the ring has news and the workspace budget grants a slot, rolling
 * over to a new message in the thread when one is full. It knows messages
 * only through its messenger and drawing (the bot's are Slack's:
 * src/slack/tails/drawing.ts). A refresh the surface
 * refuses with a 429 is simply tried again later from the same view state,
 * so no line is lost to rate limiting. At the end the message says why the
 * tail stopped and what was seen; `detach` leaves all that to whoever
 * resumes the tail.
 */
import type { Logger } from '../runtime/logger.js';
import { type Freeze, PartFreezer } from './freezer.js';
import { budgetedCall, RateLimited } from './messenger.js';
import type { ShownLine, TailProgress } from './progress.js';
import { retryDelay, tryAFewTimes } from './retry.js';
import { LineRing } from './ring-buffer.js';
import type { TailRunnerOptions } from './runner-options.js';
import type { TailAbort, TailStopReason } from './stop-reason.js';
import { runTailStream } from './tail-stream.js';
import {
  finalCounts,
  type TailCounts,
  type TailViewOptions,
  type TailViewState,
  type TailViewUpdate,
} from './tail-view.js';
import {
  countsOf,
  markerText,
  planRefresh,
  scrollOnly,
  skips,
  viewFromWindow,
  writeOf,
} from './view-steps.js';

/** How a runner ended: stopped (final message written) or detached (left for a resume). */
type RunnerEnd = 'stopped' | 'detached';

/** Follows one tail until stopped, detached or ended by the stream; see the module comment. */
export class TailRunner<M> {
  readonly done: Promise<RunnerEnd>;
  private readonly o: TailRunnerOptions<M>;
  private readonly ring: LineRing;
  private readonly viewOptions: TailViewOptions;
  private readonly base: { seen: number; neverShown: number };
  private readonly streamAbort = new AbortController();
  private readonly refreshAbort = new AbortController();
  private readonly finalAbort = new AbortController();
  private readonly log: Logger;
  private view: TailViewState;
  private messageTs: string;
  private readonly freezer: PartFreezer;
  /** The last applied refresh left lines out (lines come faster than messages show them). */
  private skipping = false;
  private waiter: (() => void) | undefined;
  private detached = false;

  constructor(options: TailRunnerOptions<M>) {
    this.o = options;
    const { limits, progress, drawing } = options;
    this.log = options.logger.child({ tail: options.target.id });
    this.ring = new LineRing({ ...limits.ring, maxLineLength: drawing.maxLineChars });
    this.viewOptions = {
      budget: drawing.linesBudget,
      measure: (line) => drawing.lineCost(line),
      maxMessages: limits.maxMessages,
    };
    this.base = { seen: progress.seen, neverShown: progress.neverShown };
    this.view = viewFromWindow(progress.window, progress.part, (line) => drawing.lineCost(line));
    this.messageTs = progress.messageTs;
    this.freezer = new PartFreezer({
      write: (freeze, signal, consumer) => this.freeze(freeze, signal, consumer),
      consumer: `${options.target.id}/freeze`,
      clock: options.clock,
      log: this.log,
      ...(options.random ? { random: options.random } : {}),
    });
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
    await this.freezer.idle();
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
          await this.o.clock.sleep(retryDelay(failures, this.o.random), signal);
        } catch {
          break;
        }
      }
    }
  }

  private async refreshOnce(signal: AbortSignal): Promise<void> {
    const { budget, messenger, target, drawing } = this.o;
    const first = this.plan();
    if (first.action === 'none') return;
    const write = writeOf(first.action);
    await budget.acquire({ write, channel: target.channel, consumer: target.id, signal });
    // The newest lines, unless they now need the other call: then the slot goes to the older refresh.
    const newest = this.plan();
    const update = writeOf(newest.action) === write ? newest : first;
    const message = drawing.live(this.input(update.lines, this.total(update.counts)));
    try {
      if (update.action === 'rollover') {
        const ts = await messenger.post(target.channel, target.threadTs, message);
        const left = { ts: this.messageTs, part: this.view.message, lines: [...this.view.window] };
        this.messageTs = ts;
        this.freezer.add(left, signal);
      } else {
        await messenger.update(target.channel, this.messageTs, message);
      }
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      budget.rateLimited(error.write, error.retryAfterMs);
      return; // the view is unchanged: the next refresh carries these lines too
    }
    this.skipping = skips(this.view, update.state);
    this.view = update.state;
    await this.save();
  }

  private plan(): TailViewUpdate {
    return planRefresh(this.ring, this.view, this.viewOptions, this.skipping);
  }

  /** Rewrites a left-behind part without its button, through the budget as `consumer`. */
  private async freeze(freeze: Freeze, signal: AbortSignal, consumer: string): Promise<void> {
    const { budget, messenger, target, drawing } = this.o;
    const message = drawing.frozen({
      ...this.input(freeze.lines, this.total(countsOf(this.view))),
      part: freeze.part + 1,
    });
    // The tail's own turn: a rollover's freeze is one of its edits, not a slot taken from the other tails.
    const request = {
      write: 'edit' as const,
      channel: target.channel,
      consumer,
      share: target.id,
      signal,
    };
    await budgetedCall(budget, request, () => messenger.update(target.channel, freeze.ts, message));
  }

  /** The last message: remaining parts frozen, the newest lines scrolled in, the reason and counts. */
  private async finalize(reason: TailStopReason): Promise<void> {
    const { budget, messenger, target, clock, drawing } = this.o;
    const signal = this.finalAbort.signal;
    // Scroll rather than roll over: the final state belongs in the message people are looking at.
    this.view = scrollOnly(this.ring, this.view, this.viewOptions).state;
    const counts = this.total(finalCounts(this.ring, this.view));
    const message = drawing.final({ ...this.input(this.view.window, counts), reason });
    await this.freezer.finish(signal, target.id);
    const request = { write: 'edit' as const, channel: target.channel, consumer: target.id, signal };
    const final = () =>
      budgetedCall(budget, request, () => messenger.update(target.channel, this.messageTs, message));
    const written = await tryAFewTimes(final, {
      signal,
      clock,
      log: this.log,
      what: 'the final tail update',
      ...(this.o.random ? { random: this.o.random } : {}),
    });
    if (signal.aborted) return;
    if (!written) this.log.error('could not write the final state of a tail');
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
