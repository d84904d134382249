/**
 * The settle rule, as a pure step from what was known and what one poll saw
 * to what to write and what to alert or recover. Trouble must last the
 * settle time before it alerts, and must be gone for the settle time before
 * it recovers: a blip shorter than that posts nothing, and an object that
 * flaps faster than that stays one episode (one message) instead of a storm.
 */

import type { WatchTrouble } from '../store/watch-types.js';
import { type Observation, objectKey } from './observe.js';

export interface EpisodeStep {
  /** Trouble rows to write (new, still bad, or newly well). */
  put: WatchTrouble[];
  /** Troubles well for the settle time: their episodes end. */
  ended: { trouble: WatchTrouble; lastedMs: number }[];
  /** Troubles bad now and for at least the settle time: each subscribed channel gets its alert. */
  due: WatchTrouble[];
}

/** One poll's step for an environment at `now`. */
export function stepEpisodes(
  env: string,
  known: readonly WatchTrouble[],
  bad: readonly Observation[],
  settleMs: number,
  now: number,
): EpisodeStep {
  const before = new Map(known.map((t) => [t.objectKey, t]));
  const seen = new Set<string>();
  const step: EpisodeStep = { put: [], ended: [], due: [] };
  for (const o of bad) {
    const key = objectKey(o);
    seen.add(key);
    const prior = before.get(key);
    const trouble: WatchTrouble = {
      env,
      objectKey: key,
      kind: o.kind,
      name: o.name,
      state: o.state,
      ...(o.reason !== undefined ? { reason: o.reason } : {}),
      ...(o.detail !== undefined ? { detail: o.detail } : {}),
      firstBadAt: prior?.firstBadAt ?? now,
      lastBadAt: now,
    };
    step.put.push(trouble);
    if (now - trouble.firstBadAt >= (o.dueAfterMs ?? settleMs)) step.due.push(trouble);
  }
  for (const t of known) {
    if (seen.has(t.objectKey)) continue;
    const goodSince = t.goodSince ?? now;
    if (now - goodSince >= settleMs) {
      step.ended.push({ trouble: t, lastedMs: goodSince - t.firstBadAt });
    } else if (t.goodSince === undefined) {
      step.put.push({ ...t, goodSince });
    }
  }
  return step;
}
