/**
 * The edges of a tail's loop that depend on where it is shown, kept
 * neutral: the messenger posts and edits messages of some kind M (Slack
 * messages in the bot), the drawing turns what a tail shows into an M and
 * says what a line costs in one. Tails ask their pacer (the workspace's
 * fair queue, which the surface owns) for a slot to edit or to post, and
 * name no method of the surface. A 429 is `RateLimited`, which the pacer
 * must hear about; `budgetedCall` waits for a slot and tries a rate-limited
 * call again.
 */
import type { PaceRequest, TailPacer, TailWrite } from '../slack-budget/budget-types.js';

export type { PaceRequest, TailPacer, TailWrite } from '../slack-budget/budget-types.js';

import type { RingLine } from './ring-buffer.js';
import type { TailStopReason } from './stop-reason.js';

/** The surface answered 429; no write of this kind may be sent for `retryAfterMs`. */
export class RateLimited extends Error {
  constructor(
    readonly write: TailWrite,
    readonly retryAfterMs: number,
  ) {
    super(`a tail's ${write} was rate limited for ${retryAfterMs} ms`);
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

/** A slot from `pacer`, then the call; a 429 pauses that write for every tail and the call is tried again. */
export async function budgetedCall<T>(
  pacer: TailPacer,
  request: PaceRequest,
  call: () => Promise<T>,
): Promise<T> {
  for (;;) {
    await pacer.acquire(request);
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      pacer.rateLimited(error.write, error.retryAfterMs);
    }
  }
}
