/**
 * The edges of a tail's loop that depend on where it is shown, kept
 * neutral: the messenger posts and edits messages of some kind M (Slack
 * messages in the bot), the drawing turns what a tail shows into an M and
 * says what a line costs in one. A 429 is `RateLimited`, which the shared
 * MessageBudget must hear about; `budgetedCall` waits for a slot and tries
 * a rate-limited call again.
 */
import type { AcquireRequest, MessageBudget, MessageMethod } from '../slack-budget/budget.js';
import type { RingLine } from './ring-buffer.js';
import type { TailStopReason } from './stop-reason.js';

/** The surface answered 429; nothing of this method may be sent for `retryAfterMs`. */
export class RateLimited extends Error {
  constructor(
    readonly method: MessageMethod,
    readonly retryAfterMs: number,
  ) {
    super(`${method} was rate limited for ${retryAfterMs} ms`);
    this.name = 'RateLimited';
  }
}

/** What a tail posts and edits; implementations throw RateLimited on a 429. */
export interface TailMessenger<M> {
  /** Posts `message` (in the thread when `threadTs` is given); resolves with its ts. */
  post(channel: string, threadTs: string | undefined, message: M): Promise<string>;
  /** Replaces the message `ts` with `message`. */
  update(channel: string, ts: string, message: M): Promise<void>;
}

/** Which Vessel a tail follows. */
export interface TailSubject {
  env: string;
  vessel: string;
  container?: string;
}

/** What a tail message shows. */
export interface TailMessageInput extends TailSubject {
  tailId: string;
  /** Oldest first; markers (gaps, takeovers) included. */
  lines: readonly Pick<RingLine, 'text'>[];
  /** Log lines read so far, and how many of them no message ever showed. */
  seen: number;
  neverShown: number;
}

/** How a tail's messages look, and how much of one a line takes. */
export interface TailDrawing<M> {
  /** The live message: newest lines, counts, Stop. */
  live(input: TailMessageInput): M;
  /** A part left behind by a rollover (no Stop). */
  frozen(input: TailMessageInput & { part: number }): M;
  /** The last state, saying why the tail stopped. */
  final(input: TailMessageInput & { reason: TailStopReason }): M;
  /** What a line costs of `linesBudget` in one message. */
  lineCost(line: Pick<RingLine, 'text'>): number;
  /** What the lines of one message may cost together. */
  linesBudget: number;
  /** Longest line kept; longer ones are cut. */
  maxLineChars: number;
}

/** A slot from `budget`, then the call; a 429 pauses the method for every tail and the call is tried again. */
export async function budgetedCall<T>(
  budget: MessageBudget,
  request: AcquireRequest,
  call: () => Promise<T>,
): Promise<T> {
  for (;;) {
    await budget.acquire(request);
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      budget.rateLimited(error.method, error.retryAfterMs);
    }
  }
}
