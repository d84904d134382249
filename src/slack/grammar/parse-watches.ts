/** `watch <env>`, `watches`, `unwatch <env>` (issue 29). */
import type { Context, Outcome } from './context.js';
import { simplePositionals } from './parse-reads.js';
import type { Token } from './tokenize.js';

/** `watch <env>`. */
export function parseWatch(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'watch', rest);
  if (!Array.isArray(args)) return args;
  return ctx.ok({ kind: 'watch', environment: args[0] as string });
}

/** `watches`. */
export function parseWatches(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'watches', rest);
  if (!Array.isArray(args)) return args;
  return ctx.ok({ kind: 'watches' });
}

/** `unwatch <env>`. */
export function parseUnwatch(ctx: Context, rest: readonly Token[]): Outcome {
  const args = simplePositionals(ctx, 'unwatch', rest);
  if (!Array.isArray(args)) return args;
  return ctx.ok({ kind: 'unwatch', environment: args[0] as string });
}
