/**
 * What changed (issue 29): the changes Harbormaster applied to an object and
 * to its region in the last 24 hours, newest first, for an alert's "What
 * changed" button. Read from the store's changes (one read of the window),
 * matched on the target each change was planned for.
 */

import { describe, isOperation, OPERATIONS, type Target, type TargetField } from '../operations/index.js';
import type { ApprovalStore, ChangeStore } from '../store/types.js';
import { type Change, toChange } from './change.js';

export const WHAT_CHANGED_WINDOW_MS = 24 * 60 * 60_000;

/** The object an alert is about. */
export interface AlertSubject {
  env: string;
  kind: string;
  name: string;
  region?: string;
}

/** The target field that names an object of `kind`: the field of the read that shows one (the catalogue's `shows`). */
function fieldOf(kind: string): TargetField | undefined {
  for (const op of OPERATIONS) {
    const shows = describe(op).shows;
    if (shows?.kind === kind) return shows.field;
  }
  return undefined;
}

/** Whether a change planned for `target` touched the subject or its region. */
export function touches(target: Target, subject: AlertSubject): boolean {
  if (target.environment !== subject.env) return false;
  const field = fieldOf(subject.kind);
  if (field && target[field] === subject.name) return true;
  return subject.region !== undefined && target.region === subject.region;
}

/**
 * Applied changes of the last 24 h touching the subject or its region (any of
 * the subjects, for an alert about a cause several fleets share), newest
 * first, at most `limit`.
 */
export async function recentChanges(
  store: Pick<ChangeStore, 'listChanges'> & Pick<ApprovalStore, 'listApprovalsFor'>,
  subject: AlertSubject | readonly AlertSubject[],
  now: number,
  limit = 10,
): Promise<Change[]> {
  const subjects = Array.isArray(subject) ? subject : [subject as AlertSubject];
  const records = await store.listChanges({
    status: ['succeeded'],
    createdAfter: now - WHAT_CHANGED_WINDOW_MS,
  });
  const matching = records
    .map((r) => toChange(r, []))
    .filter((c) => subjects.some((s) => touches(c.target, s)))
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, limit);
  if (matching.length === 0) return [];
  const approvals = await store.listApprovalsFor(matching.map((c) => c.id));
  return matching.map((c) => ({ ...c, approvals: approvals.get(c.id) ?? [] }));
}

/**
 * The fleets of `env` a rollout (an operation whose descriptor `rollsOut`)
 * applied through Harbormaster in the last 24 h targets, as `<Kind>/<name>`: the rollouts a watch follows (one read of the window).
 */
export async function followedRollouts(
  store: Pick<ChangeStore, 'listChanges'>,
  env: string,
  now: number,
): Promise<Set<string>> {
  const records = await store.listChanges({
    status: ['succeeded'],
    createdAfter: now - WHAT_CHANGED_WINDOW_MS,
  });
  const keys = new Set<string>();
  for (const r of records) {
    const rollout = isOperation(r.operation) ? describe(r.operation).rollsOut : undefined;
    if (!rollout) continue;
    const target = toChange(r, []).target;
    const name = target[rollout.field];
    if (target.environment === env && name) keys.add(`${rollout.kind}/${name}`);
  }
  return keys;
}
