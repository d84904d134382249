/**
 * Clicks are routed by action id in one table: Bolt gets a single action
 * listener (interactions.ts) instead of one per button, so a click runs one
 * middleware chain, not one per registered action (eleven, each matching
 * constraints and building its own arguments before all but one gave up).
 */
import type { BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import type { Routed } from './work.js';

/** A button click (or a modal input's dispatched action) as the listeners read it. */
export interface ClickArgs {
  body: BlockAction<ButtonAction>;
  action: ButtonAction;
  respond: RespondFn;
}

/** What a click on one action id acks with and runs behind the ack. */
export type ActionRoute = (args: ClickArgs) => Routed;

/** Routes by action id. */
export type ActionRoutes = Record<string, ActionRoute>;

/** The route for `args`'s action, or nothing to do (an action id no route claims is acked and left). */
export function routeAction(routes: ActionRoutes, args: ClickArgs): Routed {
  const route = Object.hasOwn(routes, args.action.action_id) ? routes[args.action.action_id] : undefined;
  return route ? route(args) : {};
}
