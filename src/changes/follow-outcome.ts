/**
 * Where a change's follow-up ended, kept with the change's result so its own
 * message, the requester's Home and anything drawn later say what the
 * follow-up saw, not only that the apply went through. When one change
 * follows several things (a promotion's rollouts), the worst end stands: a
 * failed rollout is not hidden by a later one that went well.
 */
import type { FollowEvent } from './operation.js';

/** A final follow-up event as stored (`result.facts.followUp`). */
export interface FollowOutcome {
  kind: 'done' | 'failed' | 'timeout';
  message: string;
  /** `synced`: the configuration reached every Site; what runs is not verified (no counts could be read). */
  evidence?: 'synced';
}

const RANK: Record<string, number> = { done: 0, synced: 1, timeout: 2, failed: 3 };
const rank = (o: FollowOutcome) => RANK[o.kind === 'done' && o.evidence ? o.evidence : o.kind] ?? 0;

/** The outcome of a final event, or undefined for progress. */
export function outcomeOf(event: FollowEvent): FollowOutcome | undefined {
  if (event.kind === 'progress') return undefined;
  return {
    kind: event.kind,
    message: event.message,
    ...(event.evidence ? { evidence: event.evidence } : {}),
  };
}

/** The outcome to keep: the worse of what is stored and what just came. */
export function worseOutcome(stored: FollowOutcome | undefined, next: FollowOutcome): FollowOutcome {
  return stored && rank(stored) > rank(next) ? stored : next;
}

/** The stored outcome of a change's result facts, if any and well formed. */
export function storedOutcome(facts: Record<string, unknown> | undefined): FollowOutcome | undefined {
  const o = facts?.followUp;
  if (typeof o !== 'object' || o === null) return undefined;
  const { kind, message, evidence } = o as Record<string, unknown>;
  if ((kind !== 'done' && kind !== 'failed' && kind !== 'timeout') || typeof message !== 'string')
    return undefined;
  return { kind, message, ...(evidence === 'synced' ? { evidence } : {}) };
}

/** The four ways a follow-up ends, for a renderer to word. */
export function outcomeKey(o: FollowOutcome): 'done' | 'synced' | 'timeout' | 'failed' {
  return o.kind === 'done' ? (o.evidence ?? 'done') : o.kind;
}
