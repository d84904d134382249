/**
 * The bot's own messages of one paced method (chat.postMessage or
 * chat.update) in one workspace, waiting in the gateway for a slot of the
 * workspace's shared gates (slack-budget/shared-slots.ts) rather than inside
 * the Web API client's request queue: a person's call that needs no slot (a
 * modal, an ephemeral answer) is never behind them, however many wait.
 *
 * When slots are short the queue orders by purpose (a person's message, then
 * outcomes, then progress, then alerts; purpose.ts) and by arrival within
 * one. A keyed call (a change message's redraw) that a newer call of the
 * same key replaces before its slot comes is not sent: the newer one takes
 * its place in the queue (and the more urgent purpose of the two), its
 * arguments are made when the slot comes (so it draws the newest state), and
 * both callers hear the one call's answer. One call per key is under way at a
 * time, so an older redraw never lands after a newer one.
 */
import type { WebAPICallResult } from '@slack/web-api';
import type { Clock } from '../../runtime/clock.js';
import type { SharedSlots, SlotClass, SlotGrant } from '../../slack-budget/shared-slots.js';
import { type PacedMethod, type QueuedPurpose, RANK, SLOT_CLASS } from './purpose.js';
import { retryAfterMs } from './rate-limited.js';

/** The arguments of a queued call, made when its slot comes; undefined: nothing to send any more. */
export type LateArgs = () => Promise<Record<string, unknown> | undefined>;

export interface QueuedCall {
  purpose: QueuedPurpose;
  /** The channel posted in or edited (a post's slot is its channel's too). */
  channel: string;
  /** Calls of one key fold: the newest replaces one still waiting. */
  key?: string;
  args: LateArgs;
}

export interface MessageQueueOptions {
  method: PacedMethod;
  clock: Clock;
  /** The workspace's shared slots. */
  slots: SharedSlots;
  /** Sends the call through the gateway's client (which rejects a 429 rather than sleep it off). */
  send(args: Record<string, unknown>): Promise<WebAPICallResult>;
  /** Slack answered 429: the gateway's one hold (holds.ts). */
  rateLimited(retryAfterMs: number, channel: string): Promise<void>;
  /** When a 429 hold of the method (in `channel`) ends. */
  heldUntil(channel: string): number;
  /** Told when a call starts (+1) and stops (-1) waiting for its slot (tests, metrics). */
  onWaiting?: (delta: 1 | -1) => void;
  /** Told when a slot's draw or a call's sending starts (+1) and ends (-1) (tests wait for none). */
  onBusy?: (delta: 1 | -1) => void;
}

interface Waiter {
  rank: number;
  seq: number;
  cls: SlotClass;
  channel: string;
  key?: string;
  args: LateArgs;
  settles: { resolve(result: WebAPICallResult | undefined): void; reject(reason: unknown): void }[];
}

export class MessageQueue {
  private waiters: Waiter[] = [];
  private readonly inFlight = new Set<string>();
  /** A slot is being drawn from the shared gates (one at a time); its answer schedules again. */
  private drawing = false;
  /** The shared gates said no for this class until then. */
  private readonly openAt = new Map<SlotClass, number>();
  private timer?: AbortController;
  private timerAt?: number;
  private seq = 0;
  /** Aborted: every call waiting goes out now, without a slot (the replica stops). */
  private flushing = false;

  constructor(private readonly o: MessageQueueOptions) {}

  /** Calls waiting for their slot now. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Queues `call`; resolves with Slack's answer (undefined when there was nothing to send). */
  enqueue(call: QueuedCall): Promise<WebAPICallResult | undefined> {
    return new Promise((resolve, reject) => {
      const settle = { resolve, reject };
      const rank = RANK[call.purpose];
      const same = call.key === undefined ? undefined : this.waiters.find((w) => w.key === call.key);
      if (same) {
        // Folded: the newer arguments, the more urgent purpose, the older place in the queue.
        same.args = call.args;
        same.rank = Math.min(same.rank, rank);
        same.settles.push(settle);
      } else {
        this.waiters.push({
          rank,
          seq: this.seq++,
          cls: SLOT_CLASS[call.purpose],
          channel: call.channel,
          ...(call.key !== undefined ? { key: call.key } : {}),
          args: call.args,
          settles: [settle],
        });
        this.o.onWaiting?.(1);
      }
      this.schedule();
    });
  }

  /** The replica stops: what waits goes out now rather than hold the shutdown on the budget's clock. */
  flush(): void {
    this.flushing = true;
    this.disarm();
    this.schedule();
  }

  /** Grants the most urgent eligible waiter its slot, or arms one timer for when one could be. */
  private schedule(): void {
    if (this.drawing) return;
    const now = this.o.clock.now();
    let pick: Waiter | undefined;
    let nextAt = Number.POSITIVE_INFINITY;
    for (const w of this.waiters) {
      if (w.key !== undefined && this.inFlight.has(w.key)) continue;
      const at = this.flushing
        ? Number.NEGATIVE_INFINITY
        : Math.max(this.openAt.get(w.cls) ?? Number.NEGATIVE_INFINITY, this.o.heldUntil(w.channel));
      if (at > now) {
        nextAt = Math.min(nextAt, at);
        continue;
      }
      if (!pick || w.rank < pick.rank || (w.rank === pick.rank && w.seq < pick.seq)) pick = w;
    }
    if (!pick) {
      this.arm(nextAt);
      return;
    }
    const chosen = pick;
    if (this.flushing) {
      this.start(chosen);
      this.schedule();
      return;
    }
    this.drawing = true;
    this.o.onBusy?.(1);
    const drawn: Promise<SlotGrant> = this.o.slots
      .take(this.o.method, chosen.channel, chosen.cls)
      // SharedSlots fall back on their own; should one still fail, ask again in a second.
      .catch(() => ({ taken: false, retryAt: this.o.clock.now() + 1000 }) as const);
    void drawn.then((grant) => {
      this.drawing = false;
      if (!grant.taken) this.openAt.set(chosen.cls, grant.retryAt);
      // A waiter folded away meanwhile cannot be: folding keeps the waiter. Still, erring on Slack's side.
      else if (this.waiters.includes(chosen)) this.start(chosen);
      this.schedule();
      this.o.onBusy?.(-1);
    });
  }

  /** The slot is this waiter's: its arguments are made now and the call goes out. */
  private start(w: Waiter): void {
    this.waiters = this.waiters.filter((x) => x !== w);
    this.o.onWaiting?.(-1);
    if (w.key !== undefined) this.inFlight.add(w.key);
    this.o.onBusy?.(1);
    void this.run(w).finally(() => {
      if (w.key !== undefined) this.inFlight.delete(w.key);
      this.schedule();
      this.o.onBusy?.(-1);
    });
  }

  private async run(w: Waiter): Promise<void> {
    try {
      const args = await w.args();
      const result = args ? await this.o.send(args) : undefined;
      for (const s of w.settles) s.resolve(result);
    } catch (err) {
      const ms = retryAfterMs(err);
      if (ms === undefined || this.flushing) {
        for (const s of w.settles) s.reject(err);
        return;
      }
      // Slack's limit was reached after all (another app, a replica's clock): held for everyone,
      // and the call waits its turn again, losing nothing.
      await this.o.rateLimited(ms, w.channel);
      this.requeue(w);
    }
  }

  /** Puts a rate-limited call back in its place; a newer call of its key waiting meanwhile folds into it. */
  private requeue(w: Waiter): void {
    const newer = w.key === undefined ? undefined : this.waiters.find((x) => x.key === w.key);
    if (newer) {
      newer.seq = Math.min(newer.seq, w.seq);
      newer.rank = Math.min(newer.rank, w.rank);
      newer.settles.push(...w.settles);
      return;
    }
    this.waiters.push(w);
    this.o.onWaiting?.(1);
  }

  /** One timer; an earlier need replaces a later one. */
  private arm(at: number): void {
    if (!Number.isFinite(at)) {
      this.disarm();
      return;
    }
    if (this.timer && this.timerAt !== undefined && this.timerAt <= at) return;
    this.timer?.abort();
    const timer = new AbortController();
    this.timer = timer;
    this.timerAt = at;
    this.o.clock.sleep(Math.max(0, Math.ceil(at - this.o.clock.now())), timer.signal).then(
      () => {
        if (this.timer !== timer) return;
        this.timer = undefined;
        this.timerAt = undefined;
        this.schedule();
      },
      () => undefined, // replaced or flushed
    );
  }

  private disarm(): void {
    this.timer?.abort();
    this.timer = undefined;
    this.timerAt = undefined;
  }
}
