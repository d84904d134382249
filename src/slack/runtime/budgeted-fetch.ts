/**
 * The bot's own messages (change previews and results, release threads,
 * follow-ups) spend the workspace's Slack budget like the tails do: every
 * chat.postMessage and chat.update any of the bot's WebClients sends takes a
 * slot of the workspace's shared gates first, as a person's message, which
 * goes ahead of the tails' redraws (src/slack-budget/shared-slots.ts). Wrapping the
 * `fetch` the clients are given catches every such call, whatever code made
 * it, without touching the SDK. A 429 that reaches the bot anyway pauses the
 * method for every replica, as it does for the tails.
 */
import type { FetchFunction } from '@slack/web-api';
import type { Clock } from '../../runtime/clock.js';
import type { MessageMethod } from '../../slack-budget/budget-types.js';
import type { SharedSlots } from '../../slack-budget/shared-slots.js';
import { outsideSlot } from './slots.js';

const BUDGETED: ReadonlySet<string> = new Set<MessageMethod>(['chat.update', 'chat.postMessage']);

interface BudgetedFetchOptions {
  /** The shared slots of the bot's workspace; undefined while it is not known (the call then goes as it is). */
  slots(): Promise<SharedSlots | undefined>;
  /** The budget's clock (the tails' clock: the store's gates are kept in its time). */
  clock: Clock;
  fetch: FetchFunction;
  /** Aborted when the replica stops: calls waiting for a slot go out at once rather than hold the shutdown. */
  stopping?: AbortSignal;
  /** Told when a call starts (+1) and stops (-1) waiting on the clock for a slot (tests move their clock only then). */
  onWaiting?: (delta: 1 | -1) => void;
}

/** A fetch for WebClient options whose message calls wait for a slot of the shared budget. */
export function budgetedFetch(o: BudgetedFetchOptions): FetchFunction {
  return async (input, init) => {
    const method = methodOf(input);
    if (!method) return o.fetch(input, init);
    const slots = await o.slots();
    const channel = channelOf(init?.body);
    if (slots) await waitForSlot(slots, method, channel, o);
    const response = await o.fetch(input, init);
    if (slots && response.status === 429) {
      const seconds = Number(response.headers.get('retry-after') ?? '1');
      const until = o.clock.now() + (Number.isFinite(seconds) ? seconds : 1) * 1000;
      await slots.hold(method, until, method === 'chat.postMessage' ? channel : undefined);
    }
    return response;
  };
}

/** Waits until `slots` grant a person's slot, or the replica stops. */
async function waitForSlot(
  slots: SharedSlots,
  method: MessageMethod,
  channel: string,
  o: BudgetedFetchOptions,
): Promise<void> {
  const first = await slots.take(method, channel, 'person');
  if (first.taken) return;
  // The next slot may be minutes away (Tier 3 after a burst): the work slot is given back meanwhile,
  // so work for another method, or for no Slack call at all, is not held up behind this one.
  await outsideSlot(async () => {
    let retryAt = first.retryAt;
    while (!o.stopping?.aborted) {
      o.onWaiting?.(1);
      try {
        await o.clock.sleep(Math.max(0, retryAt - o.clock.now()), o.stopping);
      } catch {
        return;
      } finally {
        o.onWaiting?.(-1);
      }
      const answer = await slots.take(method, channel, 'person');
      if (answer.taken) return;
      retryAt = answer.retryAt;
    }
  });
}

/** The budgeted Web API method a request URL calls, if it is one. */
function methodOf(input: Parameters<FetchFunction>[0]): MessageMethod | undefined {
  const url = typeof input === 'string' ? input : input.href;
  const last = url.split('?')[0]?.split('/').filter(Boolean).at(-1) ?? '';
  return BUDGETED.has(last) ? (last as MessageMethod) : undefined;
}

/** The `channel` argument of a Web API call (the SDK sends a form body, or JSON). */
function channelOf(body: unknown): string {
  if (typeof body !== 'string') return '';
  if (body.startsWith('{')) {
    try {
      const channel = (JSON.parse(body) as { channel?: unknown }).channel;
      return typeof channel === 'string' ? channel : '';
    } catch {
      return '';
    }
  }
  return new URLSearchParams(body).get('channel') ?? '';
}

/**
 * The workspace the bot's token is installed in (auth.test's team_id, asked
 * once; a failure is asked again): the key of the budget the bot's own
 * messages share with the tails of that workspace.
 */
export function tokenWorkspace(
  client: {
    auth: { test(): Promise<{ team_id?: string }> };
  },
  /** The start's token check's answer, when it had one: then nothing is asked. */
  teamId?: string,
): () => Promise<string | undefined> {
  let known: Promise<string | undefined> | undefined = teamId ? Promise.resolve(teamId) : undefined;
  return () => {
    known ??= client.auth.test().then(
      (answer) => answer.team_id,
      () => {
        known = undefined;
        return undefined;
      },
    );
    return known;
  };
}
