/**
 * The tails' fair queue as tails/ asks for it: to edit a message or to post
 * one (a rollover), never naming a Slack method. This maps those two writes
 * onto the MessageBudget's methods (chat.update, chat.postMessage).
 */
import type { MessageBudget } from './budget.js';
import type { MessageMethod, TailPacer, TailWrite } from './budget-types.js';

const METHOD: Record<TailWrite, MessageMethod> = { edit: 'chat.update', post: 'chat.postMessage' };

/** The Slack method a tail's write is (the surface's side of RateLimited). */
export function methodOfWrite(write: TailWrite): MessageMethod {
  return METHOD[write];
}

/** The tail's write a Slack method is. */
export function writeOfMethod(method: MessageMethod): TailWrite {
  return method === 'chat.postMessage' ? 'post' : 'edit';
}

/**
 * `budget` as tails ask it. A tail's 429 goes to `hold` (the gateway's one hold of the workspace,
 * which pauses the budget and every replica); without one, to the budget itself.
 */
export function tailPacer(
  budget: MessageBudget,
  hold: (method: MessageMethod, retryAfterMs: number) => void = (method, ms) =>
    budget.rateLimited(method, ms),
): TailPacer {
  return {
    acquire: ({ write, ...rest }) => budget.acquire({ method: METHOD[write], ...rest }),
    rateLimited: (write, retryAfterMs) => hold(METHOD[write], retryAfterMs),
    forget: (consumer) => budget.forget(consumer),
    close: () => budget.close(),
    idle: () => budget.idle(),
    get busy() {
      return budget.busy;
    },
    stats: () => budget.stats(),
  };
}
