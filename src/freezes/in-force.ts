/**
 * Which freezes are in force, and which of them stops a change: the one
 * check the change engine makes at request, at Confirm and Approve, and
 * again right before it writes (a scheduled apply is to call the same).
 * Freezes put by people come from the store, so every replica sees the
 * same; windows come from the policy and the clock.
 */
import type { FreezeWindow } from '../policy/types.js';
import type { FreezeRecord, FreezeStore } from '../store/freeze-types.js';
import type { Freeze, FreezeScope } from './types.js';
import { nextOccurrence, occurrenceAt, scheduleText } from './windows.js';

export interface FreezeSources {
  store: Pick<FreezeStore, 'listFreezes'>;
  windows: readonly FreezeWindow[];
}

/** A stored freeze as the rest of the bot sees it. */
export function manualFreeze(r: FreezeRecord): Freeze {
  return {
    kind: 'manual',
    id: r.id,
    env: r.env,
    by: r.createdBy,
    since: r.createdAt,
    channel: r.channel,
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.until !== undefined ? { until: r.until } : {}),
  };
}

function windowFreeze(w: FreezeWindow, env: string, o: { start: number; end: number }): Freeze {
  return {
    kind: 'window',
    name: w.name,
    env,
    since: o.start,
    until: o.end,
    schedule: scheduleText(w),
    ...(w.reason ? { reason: w.reason } : {}),
  };
}

/** The freezes in force at `now` on any of `envs`: people's first (oldest first), then the policy's windows. */
export async function freezesInForce(
  s: FreezeSources,
  envs: readonly string[],
  now: number,
): Promise<Freeze[]> {
  if (envs.length === 0) return [];
  const wanted = new Set(envs);
  const stored = (await s.store.listFreezes({ now })).filter((r) => wanted.has(r.env)).map(manualFreeze);
  const windows = [...wanted].flatMap((env) =>
    s.windows.flatMap((w) => {
      const o = w.covers(env) ? occurrenceAt(w, now) : undefined;
      return o ? [windowFreeze(w, env, o)] : [];
    }),
  );
  return [...stored, ...windows];
}

/** The policy windows' next occurrences on `envs` (those not in force now), soonest first. */
export function upcomingWindows(
  windows: readonly FreezeWindow[],
  envs: readonly string[],
  now: number,
): Freeze[] {
  const out: Freeze[] = [];
  for (const w of windows) {
    const next = nextOccurrence(w, now);
    if (!next) continue;
    const covered = envs.filter((env) => w.covers(env));
    // A window over environments nobody named by name (a glob) is listed by its pattern.
    const named = covered.length > 0 ? covered : [w.environments.join(', ')];
    for (const env of named) out.push(windowFreeze(w, env, next));
  }
  return out.sort((a, b) => a.since - b.since);
}

/** The freeze that stops a change acting on `scope` at `now`, or undefined when none does. */
export async function blockingFreeze(
  s: FreezeSources,
  scope: FreezeScope,
  now: number,
): Promise<Freeze | undefined> {
  const inForce = await freezesInForce(
    s,
    scope.places.map((p) => p.env),
    now,
  );
  for (const place of scope.places) {
    const stops = inForce.find(
      (f) =>
        f.env === place.env &&
        // A rollback of a change applied before the freeze began is let through.
        !(place.undoesChangeAppliedAt !== undefined && place.undoesChangeAppliedAt < f.since),
    );
    if (stops) return stops;
  }
  return undefined;
}
