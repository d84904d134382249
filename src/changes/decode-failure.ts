/**
 * Reading a stored failure back. Rows written by this version decode as they
 * are; rows written before failures were data (`{ message, kind: string, ... }`)
 * map to the nearest kind, keeping their old words to show as they were. A
 * value that fits neither still renders, as an internal failure without an id.
 */

import { z } from 'zod';
import type { Freeze } from '../freezes/types.js';
import type { ChangeFailure } from './failure.js';

const call = z.object({ method: z.string(), path: z.string() });
const detail = z.object({ reason: z.string().optional(), text: z.string() });
const permission = z.object({
  group: z.string(),
  resource: z.string(),
  verb: z.string(),
  scope: z.object({ kind: z.enum(['environment', 'branch']), name: z.string() }).optional(),
});
const answer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('unreadable'), call }),
  z.object({ kind: z.literal('timeout'), call }),
  z.object({ kind: z.literal('connection_broke'), call }),
  z.object({ kind: z.literal('status'), call, status: z.number(), explained: z.boolean() }),
  z.object({ kind: z.literal('unexpected'), errorId: z.string().optional() }),
  z.object({ kind: z.literal('interrupted') }),
  z.object({ kind: z.literal('earlier'), text: z.string() }),
]);
const userKind = z.enum([
  'validation',
  'not_found',
  'world_moved',
  'refused',
  'noop',
  'duplicate',
  'conflict',
  'stale',
  'slack',
  'user',
]);

const current = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), problem: userKind, text: z.string() }),
  z.object({ kind: z.literal('conflict'), object: z.string(), name: z.string(), attempts: z.number() }),
  z.object({ kind: z.literal('unreachable'), call, detail }),
  z.object({ kind: z.literal('unauthorized'), call }),
  z.object({ kind: z.literal('forbidden'), call, detail, permission: permission.optional() }),
  z.object({ kind: z.literal('not_found'), call, detail }),
  z.object({ kind: z.literal('api_rejected'), call, status: z.number(), detail }),
  z.object({ kind: z.literal('rate_limited'), call }),
  z.object({ kind: z.literal('api_failed'), call, status: z.number(), detail }),
  z.object({ kind: z.literal('store_unavailable'), errorId: z.string() }),
  z.object({ kind: z.literal('internal'), errorId: z.string() }),
  z.object({ kind: z.literal('rejected'), by: z.string().optional(), reason: z.string().optional() }),
  z.object({ kind: z.literal('cancelled'), by: z.string().optional() }),
  z.object({
    kind: z.literal('frozen'),
    // Written by this version only (freezes/types.ts); its fields are read as they were stored.
    freeze: z.custom<Freeze>((v) => typeof v === 'object' && v !== null && 'env' in v && 'kind' in v),
  }),
  z.object({
    kind: z.literal('missed'),
    scheduledAt: z.number(),
    lateMs: z.number(),
    graceMs: z.number(),
  }),
  z.object({
    kind: z.literal('unconfirmed'),
    answer,
    check: z.enum(['unreadable', 'not_seen']),
    where: z.string(),
    since: z.number(),
    mayStillLand: z.boolean(),
  }),
  z.object({ kind: z.literal('not_applied'), answer, where: z.string() }),
  z.object({ kind: z.literal('never_landed'), answer, where: z.string(), overMs: z.number() }),
  z.object({ kind: z.literal('earlier'), text: z.string(), state: z.enum(['unchanged', 'unknown']) }),
]);

/** The shape stored before failures were data: words, a free-form kind and a few fields. */
const legacy = z.object({
  message: z.string().catch('The change failed for an unknown reason.'),
  kind: z.string().catch('internal'),
  status: z.number().optional().catch(undefined),
  by: z.string().optional().catch(undefined),
  reason: z.string().optional().catch(undefined),
  since: z.number().optional().catch(undefined),
  mayStillLand: z.boolean().optional().catch(undefined),
  answer: z.string().optional().catch(undefined),
});

/** Old kinds whose failures guaranteed the API was left as it was (the old renderer's list). */
const LEGACY_UNCHANGED = new Set([
  'validation',
  'not_found',
  'world_moved',
  'refused',
  'conflict',
  'forbidden',
  'interrupted',
  'unreachable',
  'api',
  'user',
  'rejected',
  'cancelled',
]);

/** What an old unconfirmed failure lacks: what to look at, and since when (the change's last update). */
export interface LegacyContext {
  where: string;
  since: number;
}

/** The failure stored in a change record's `error` column. */
export function decodeFailure(stored: unknown, context: LegacyContext): ChangeFailure | undefined {
  if (stored === undefined || stored === null) return undefined;
  const now = current.safeParse(stored);
  if (now.success) return now.data;
  const old = legacy.safeParse(stored);
  if (!old.success)
    return { kind: 'earlier', text: 'The change failed for an unknown reason.', state: 'unknown' };
  return fromLegacy(old.data, context);
}

function fromLegacy(old: z.infer<typeof legacy>, { where, since }: LegacyContext): ChangeFailure {
  if (old.kind === 'rejected') return { kind: 'rejected', by: old.by, reason: old.reason };
  if (old.kind === 'cancelled') return { kind: 'cancelled', by: old.by };
  if (old.kind === 'unconfirmed') {
    return {
      kind: 'unconfirmed',
      answer: { kind: 'earlier', text: old.answer ?? 'the API answered unclearly' },
      // A read that could not be made never marked the write as possibly still landing.
      check: old.mayStillLand ? 'not_seen' : 'unreadable',
      where,
      since: old.since ?? since,
      mayStillLand: old.mayStillLand ?? false,
    };
  }
  // UserErrors were stored with their own kind and no status; ConcurrentModification also said 'conflict'.
  const user = userKind.safeParse(old.kind);
  if (user.success && old.status === undefined && old.kind !== 'conflict') {
    return { kind: 'user', problem: user.data, text: old.message };
  }
  return {
    kind: 'earlier',
    text: old.message,
    state: LEGACY_UNCHANGED.has(old.kind) ? 'unchanged' : 'unknown',
  };
}
