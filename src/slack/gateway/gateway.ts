/**
 * The bot's one way to Slack's Web API (issue 40): one SlackGateway per bot
 * token, so per installed workspace, holding the only Web API client in src/
 * (Bolt's and Socket Mode's own aside, which the bot does not call through).
 * It owns, per workspace it posts in: the shared slots every replica draws
 * from (slack-budget/shared-slots.ts), the tails' fair queue
 * (slack-budget/budget.ts), the per-method gates in the store (views.publish),
 * the Retry-After hold (holds.ts) and the one reading of a 429
 * (rate-limited.ts).
 *
 * Callers say what a call is for (purpose.ts) and the gateway orders and
 * paces it:
 * - a person's call of a method Slack does not pace per message (views.open,
 *   an ephemeral answer) goes straight out: nothing paced ever waits inside
 *   the client's request queue, so nothing is ahead of it;
 * - posts and edits wait in the gateway's message queue (message-queue.ts),
 *   a person's first, then outcomes, then progress, then alerts, keyed
 *   redraws folded; tails in their fair queue, Home tabs at their gate;
 * - a 429 holds the method for every replica and the call goes again after.
 */
import { type WebAPICallResult, WebClient, type WebClientOptions } from '@slack/web-api';
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import { MessageBudget } from '../../slack-budget/budget.js';
import type { BudgetOptions, MessageMethod } from '../../slack-budget/budget-types.js';
import { MethodGate } from '../../slack-budget/method-gate.js';
import { StoreSlots } from '../../slack-budget/shared-slots.js';
import { tailPacer } from '../../slack-budget/tail-pacer.js';
import type { SlackBudgetStore } from '../../store/types.js';
import type { TailPacer } from '../../tails/messenger.js';
import { boltLogger } from '../runtime/bolt-logger.js';
import { type SlackCalls, slackCalls } from '../runtime/slack-calls.js';
import { outsideSlot } from '../runtime/slots.js';
import { RateHolds } from './holds.js';
import { type LateArgs, MessageQueue } from './message-queue.js';
import { isPaced, type PacedMethod, type Purpose } from './purpose.js';
import { retryAfterMs } from './rate-limited.js';

/** Methods with a gate of their own in the store, shared by every replica (beyond the message methods). */
export const METHOD_GATES = {
  /** Home redraws' share of views.publish (Tier 4, 100+ a minute): under it, with room for tabs people open. */
  'views.publish': { perMinute: 90, burst: 5 },
} as const;
type GatedMethod = keyof typeof METHOD_GATES;

/** How often a call of a method Slack does not pace here is tried again after 429s before it gives up. */
const UNPACED_ATTEMPTS = 3;

export interface SlackGatewayOptions {
  token: string;
  /** The Slack API base URL (tests: the stand-in). */
  apiUrl?: string;
  /** The client's retry policy and transport (the bot's: counted; tests: their own). */
  clientOptions?: WebClientOptions;
  /**
   * The store every replica shares: the slots and gates live there. Asked for on the first paced
   * call (the token's check, which needs none, runs while the store opens).
   */
  store(): SlackBudgetStore;
  replicaId: string;
  /** The budget's clock (the store's gates are kept in its time). */
  clock: Clock;
  logger: Logger;
  /** The workspace's limits (default: 45 edits and 100 posts a minute, a post a second a channel). */
  limits?: Omit<BudgetOptions, 'clock'>;
  /** Told of every slot taken from the local fallback because the store failed. */
  onFallback?: (method: MessageMethod) => void;
}

/** What the gateway keeps for one workspace. */
interface Workspace {
  team: string;
  slots: StoreSlots;
  tails: MessageBudget;
  /** The same queue, as tails/ asks it (to edit or to post). */
  pacer: TailPacer;
  queues: Record<PacedMethod, MessageQueue>;
  holds: RateHolds;
  gates: Map<GatedMethod, MethodGate>;
}

/** How a call is sent: its purpose, and for redraws the key they fold by. */
export interface CallOptions {
  /** The workspace (default: the token's, from auth.test). */
  team?: string;
  /** Calls of one key fold while waiting (a change message's redraws). */
  key?: string;
  /** The channel of a post or edit whose arguments are made later. */
  channel?: string;
}

export class SlackGateway {
  private readonly client: WebClient;
  private readonly workspaces = new Map<string, Workspace>();
  private readonly stopping = new AbortController();
  private identity?: Promise<WebAPICallResult>;
  private waitingNow = 0;
  /** Slots being drawn and queued calls being sent now. */
  private sendingNow = 0;
  /** Calls asked for so far, by `purpose method` (folded ones too): tests wait on it rather than on time. */
  private readonly askedSoFar = new Map<string, number>();
  /** Woken at every move of a queued call (asked, started, answered). */
  private movers: (() => void)[] = [];

  constructor(private readonly o: SlackGatewayOptions) {
    this.client = new WebClient(o.token, {
      ...(o.apiUrl ? { slackApiUrl: o.apiUrl } : {}),
      logger: boltLogger(o.logger.child({ component: 'slack-web-api' })),
      ...o.clientOptions,
      // Every 429 reaches the gateway (holds.ts) instead of pausing the client's whole queue.
      rejectRateLimitedCalls: true,
    });
  }

  /** auth.test, asked once (the token's check at start); its team is the workspace of the bot's own calls. */
  whoAmI(): Promise<WebAPICallResult> {
    this.identity ??= this.client.apiCall('auth.test').catch((err: unknown) => {
      this.identity = undefined;
      throw err;
    });
    return this.identity;
  }

  /** The methods the bot calls, each call ordered and paced for `purpose`. */
  calls(purpose: Purpose, team?: string): SlackCalls {
    return slackCalls(async (method, args) => {
      const result = await this.call(purpose, method, args, team ? { team } : {});
      return result as WebAPICallResult;
    });
  }

  /**
   * Sends `method` for `purpose`. `args` may be a function, asked when the call's slot comes (a
   * redraw then draws the newest state); it answers undefined when nothing is left to send, and so
   * does the call. Posts and edits wait for their slot outside the caller's work slot.
   */
  async call(
    purpose: Purpose,
    method: string,
    args: Record<string, unknown> | LateArgs,
    o: CallOptions = {},
  ): Promise<WebAPICallResult | undefined> {
    const late: LateArgs = typeof args === 'function' ? args : async () => args;
    const ws = this.workspace(o.team ?? (await this.ownTeam()));
    const asked = `${purpose} ${method}`;
    this.askedSoFar.set(asked, (this.askedSoFar.get(asked) ?? 0) + 1);
    this.moved();
    if (isPaced(method) && purpose !== 'tail' && purpose !== 'home') {
      const channel = typeof args === 'function' ? (o.channel ?? '') : String(args.channel ?? '');
      const queued = ws.queues[method].enqueue({
        purpose,
        channel,
        ...(o.key !== undefined ? { key: o.key } : {}),
        args: late,
      });
      // The slot may be minutes away (Tier 3 after a burst): the caller's work slot is given back meanwhile.
      return outsideSlot(() => queued).finally(() => this.moved());
    }
    if (method in METHOD_GATES) return this.gated(ws, method as GatedMethod, late);
    const given = await late();
    return given ? this.unpaced(ws, method, given) : undefined;
  }

  /** Waits for a slot of `method`'s gate in `team` (a Home redraw takes it before it reads what to draw). */
  async slot(method: GatedMethod, team: string): Promise<void> {
    await this.gate(this.workspace(team), method).wait(this.stopping.signal);
  }

  /** The tails' fair queue of `team` (one per workspace, drawing from the shared slots in the tails' class). */
  tailBudget(team: string): TailPacer {
    return this.workspace(team).pacer;
  }

  /**
   * Sends a tail's call now: its slot came from the tails' fair queue (tailBudget), which also hears
   * of a 429 from the tail (RateLimited) and holds the method for every tail and replica.
   */
  tailCall(method: MessageMethod, args: Record<string, unknown>): Promise<WebAPICallResult> {
    return this.client.apiCall(method, args);
  }

  /** Calls waiting for a slot now (tests move their clock once the bot's messages are parked). */
  waiting(): number {
    return this.waitingNow;
  }

  /** How many calls of `method` were asked for `purpose` so far (folded ones too). */
  asked(purpose: Purpose, method: string): number {
    return this.askedSoFar.get(`${purpose} ${method}`) ?? 0;
  }

  /**
   * Resolves at the next move of a queued call: one asked for, one leaving the queue for Slack, one
   * answered. Tests wait on it for the bot's work to reach the gateway before they move the clock.
   */
  changed(): Promise<void> {
    return new Promise((resolve) => this.movers.push(resolve));
  }

  /**
   * Resolves once no queued call is drawing its slot or being sent: what the clock let through has
   * reached Slack (tests move their clock a step at a time and wait for this between steps).
   */
  sent(): Promise<void> {
    return this.until(() => this.sendingNow === 0);
  }

  /** Resolves once `check` holds, checked at every move of a queued call (see changed()). */
  async until(check: () => boolean): Promise<void> {
    while (!check()) await this.changed();
  }

  private moved(): void {
    const movers = this.movers;
    this.movers = [];
    for (const wake of movers) wake();
  }

  /** Whether a call to the store's shared slots is under way. */
  busy(): boolean {
    return [...this.workspaces.values()].some((w) => w.slots.busy || w.tails.busy);
  }

  async idle(): Promise<void> {
    await Promise.all([...this.workspaces.values()].flatMap((w) => [w.slots.idle(), w.tails.idle()]));
  }

  /** Each workspace's tail budget now, for metrics. */
  tailBudgets(): { workspace: string; budget: MessageBudget }[] {
    return [...this.workspaces].map(([workspace, w]) => ({ workspace, budget: w.tails }));
  }

  /** The replica stops: what waits goes out now, and the tails' queue rejects what is left. */
  stop(): void {
    this.stopping.abort();
    for (const w of this.workspaces.values()) {
      for (const q of Object.values(w.queues)) q.flush();
    }
  }

  /** Closes the tails' queues (after the tails detached). */
  closeTails(): void {
    for (const w of this.workspaces.values()) w.tails.close();
  }

  private async ownTeam(): Promise<string> {
    try {
      const me = (await this.whoAmI()) as { team_id?: string };
      return me.team_id ?? '';
    } catch {
      // Not known yet (Slack unreachable): paced as a workspace of its own until auth.test answers.
      return '';
    }
  }

  /** A call of a method with a gate in the store: its slot, then the call; a 429 holds the gate for everyone. */
  private async gated(
    ws: Workspace,
    method: GatedMethod,
    late: LateArgs,
  ): Promise<WebAPICallResult | undefined> {
    const gate = this.gate(ws, method);
    for (;;) {
      // The slot was taken before the arguments were made (slot()): a 429 seen meanwhile still holds.
      await gate.pause(this.stopping.signal);
      const args = await late();
      if (!args) return undefined;
      try {
        return await this.client.apiCall(method, args);
      } catch (err) {
        const ms = retryAfterMs(err);
        if (ms === undefined) throw err;
        await ws.holds.hold(method, ms);
        await gate.wait(this.stopping.signal);
      }
    }
  }

  /** A call Slack does not pace per message here: out at once, unless a 429 holds its method. */
  private async unpaced(
    ws: Workspace,
    method: string,
    args: Record<string, unknown>,
  ): Promise<WebAPICallResult> {
    for (let attempt = 1; ; attempt++) {
      await ws.holds.wait(method, undefined, this.stopping.signal).catch(() => undefined);
      try {
        return await this.client.apiCall(method, args);
      } catch (err) {
        const ms = retryAfterMs(err);
        if (ms === undefined || attempt >= UNPACED_ATTEMPTS) throw err;
        await ws.holds.hold(method, ms);
      }
    }
  }

  private gate(ws: Workspace, method: GatedMethod): MethodGate {
    let gate = ws.gates.get(method);
    if (!gate) {
      gate = new MethodGate({
        store: this.o.store(),
        workspace: ws.team,
        method,
        ...METHOD_GATES[method],
        clock: this.o.clock,
        logger: this.o.logger.child({ component: 'slack-gateway' }),
      });
      ws.gates.set(method, gate);
    }
    return gate;
  }

  private workspace(team: string): Workspace {
    const known = this.workspaces.get(team);
    if (known) return known;
    const { o } = this;
    const slots = new StoreSlots({
      store: o.store(),
      workspace: team,
      replicaId: o.replicaId,
      clock: o.clock,
      logger: o.logger.child({ component: 'slack-budget' }),
      ...(o.limits ? { limits: o.limits } : {}),
      ...(o.onFallback ? { onFallback: o.onFallback } : {}),
    });
    const tails = new MessageBudget({ ...o.limits, clock: o.clock }, slots);
    // The one hold of the workspace: a 429 of any caller (queue, tail, gate) pauses the tails' fair
    // queue here and the store's gate for every replica (MessageBudget shares it through the slots).
    const holds = new RateHolds(o.clock, async (method, until, channel) => {
      if (method === 'chat.postMessage' || method === 'chat.update') {
        tails.rateLimited(method, until - o.clock.now(), channel);
        await tails.idle();
      } else if (method in METHOD_GATES) await this.gate(ws, method as GatedMethod).hold(until);
    });
    const queue = (method: PacedMethod) =>
      new MessageQueue({
        method,
        clock: o.clock,
        slots,
        send: (args) => this.client.apiCall(method, args),
        rateLimited: (ms, channel) =>
          holds.hold(method, ms, method === 'chat.postMessage' ? channel : undefined),
        heldUntil: (channel) => holds.openAt(method, channel),
        onWaiting: (delta) => {
          this.waitingNow += delta;
          this.moved();
        },
        onBusy: (delta) => {
          this.sendingNow += delta;
          this.moved();
        },
      });
    const ws: Workspace = {
      team,
      slots,
      tails,
      pacer: tailPacer(tails, (method, ms) => void holds.hold(method, ms)),
      queues: { 'chat.postMessage': queue('chat.postMessage'), 'chat.update': queue('chat.update') },
      holds,
      gates: new Map(),
    };
    this.workspaces.set(team, ws);
    return ws;
  }
}
