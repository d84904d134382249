/**
 * A rollout Harbormaster follows that stopped moving (issue 29): a fleet an
 * `armada.image` or `armadaset.image` change applied through the bot in the
 * last 24 h rolls out, its status reports counts, fewer servers are updated
 * than run, and that count has not moved for the stall time. Where it stood
 * and since when is kept in the store, so a takeover keeps the clock. A fleet
 * already in trouble for another reason (Degraded) is reported as that.
 */
import type { Armada, ArmadaSet } from '../api-shapes/armada-resources.js';
import { replicaCounts } from '../api-shapes/armada-resources.js';
import { followedRollouts } from '../changes/recent-changes.js';
import { formatSpan } from '../format/duration.js';
import type { ChangeStore } from '../store/types.js';
import type { WatchStore } from '../store/watch-types.js';
import { type Listing, type Observation, objectKey } from './observe.js';

/** How long a followed rollout may stand still before it is trouble: five intervals, at least 5 minutes. */
export const stallMs = (intervalMs: number): number => Math.max(5 * intervalMs, 5 * 60_000);

/** The followed rollouts of `listing` that stopped moving, as observations. */
export async function stalledRollouts(
  store: Pick<WatchStore, 'noteProgress'> & Pick<ChangeStore, 'listChanges'>,
  env: string,
  listing: Listing,
  bad: readonly Observation[],
  intervalMs: number,
  now: number,
): Promise<Observation[]> {
  const followed = await followedRollouts(store, env, now);
  const already = new Set(bad.map(objectKey));
  const fleets: { kind: 'Armada' | 'ArmadaSet'; fleet: Armada | ArmadaSet; region?: string }[] = [
    ...listing.armadas.map((a) => ({ kind: 'Armada' as const, fleet: a, region: a.spec.region })),
    ...listing.armadaSets.map((s) => ({ kind: 'ArmadaSet' as const, fleet: s })),
  ];
  const marks = new Map<string, string>();
  const moving = new Map<
    string,
    { kind: 'Armada' | 'ArmadaSet'; name: string; region?: string; updated: number; total: number }
  >();
  for (const { kind, fleet, region } of fleets) {
    const key = objectKey({ kind, name: fleet.metadata.name });
    if (!followed.has(key) || already.has(key)) continue;
    const { total } = replicaCounts(fleet.status);
    if (total.replicas === undefined || total.updatedReplicas === undefined) continue;
    if (total.updatedReplicas >= total.replicas) continue;
    marks.set(key, `${total.updatedReplicas}/${total.replicas}`);
    moving.set(key, {
      kind,
      name: fleet.metadata.name,
      ...(region !== undefined ? { region } : {}),
      updated: total.updatedReplicas,
      total: total.replicas,
    });
  }
  const since = await store.noteProgress(env, marks, now);
  const stalled: Observation[] = [];
  for (const [key, r] of moving) {
    const still = now - (since.get(key) ?? now);
    if (still < stallMs(intervalMs)) continue;
    stalled.push({
      kind: r.kind,
      name: r.name,
      ...(r.region !== undefined ? { region: r.region } : {}),
      state: 'Rollout stalled',
      reason: `${r.updated} of ${r.total} servers updated; no progress for ${formatSpan(still)}`,
    });
  }
  return stalled;
}
