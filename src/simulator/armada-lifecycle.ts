/**
 * An Armada's game servers, computed lazily from the injected clock like a
 * Vessel's lifecycle: a record keeps the spec, the allocated servers per
 * region type, when each type was last scaled and the rollout under way.
 *
 * Per region type the autoscaler keeps `min(max, max(min, allocated + buffer))`
 * servers (0 when max is 0, a drain). New servers start for one step before
 * they are Ready. A template change rolls out in waves of maxSurge +
 * maxUnavailable servers (Kubernetes' IntOrString rules, 25%/25% by default),
 * each wave two steps long; a container whose image is missing from its branch,
 * or whose servers crash on start, holds the rollout at 0 updated and the
 * Armada Degraded with the reason.
 */
import type { Armada, Distribution } from '../api-shapes/armada-resources.js';
import type { ImageLookup } from './containers.js';
import { deepClone, stableStringify } from './json.js';
import type { LifecycleSettings } from './lifecycle.js';

interface Rollout {
  startedAt: number;
  total: number;
  surge: number;
  batch: number;
}

export interface ArmadaRecord {
  /** The object as stored (no status). */
  armada: Armada;
  /** Game servers allocated to players, per region type (the simulated player load). */
  allocated: Map<string, number>;
  /** When each type's server count last changed, and from what. */
  scaled: Map<string, { from: number; at: number }>;
  rollout?: Rollout;
}

/** The servers a region type keeps with `allocated` of them in use. */
export function targetReplicas(d: Distribution, allocated: number): number {
  const max = d.maxReplicas ?? 0;
  if (max === 0) return 0;
  return Math.min(max, Math.max(d.minReplicas ?? 0, allocated + (d.bufferSize ?? 0)));
}

/** A new record; demo and controller-made Armadas start settled, with half their minimum allocated. */
export function newArmadaRecord(armada: Armada): ArmadaRecord {
  const allocated = new Map(
    armada.spec.distribution.map((d) => [d.name, Math.floor((d.minReplicas ?? 0) / 2)]),
  );
  return { armada, allocated, scaled: new Map() };
}

/** Stores a new spec: scaled types start new servers, a changed template starts a rollout. */
export function updateArmada(rec: ArmadaRecord, next: Armada, now: number): void {
  const before = rec.armada;
  for (const d of next.spec.distribution) {
    const old = before.spec.distribution.find((o) => o.name === d.name);
    const allocated = Math.min(rec.allocated.get(d.name) ?? 0, d.maxReplicas ?? 0);
    const from = old ? targetReplicas(old, rec.allocated.get(d.name) ?? 0) : 0;
    // Lowering max below the allocated servers ends those matches.
    rec.allocated.set(d.name, allocated);
    if (targetReplicas(d, allocated) !== from) rec.scaled.set(d.name, { from, at: now });
  }
  if (stableStringify(before.spec.template) !== stableStringify(next.spec.template)) {
    const total = next.spec.distribution.reduce(
      (n, d) => n + targetReplicas(d, rec.allocated.get(d.name) ?? 0),
      0,
    );
    rec.rollout = { startedAt: now, total, ...waveSize(next, total) };
  }
  rec.armada = next;
}

/** Kubernetes' resolution of maxSurge (rounded up) and maxUnavailable (rounded down), never both 0. */
function waveSize(armada: Armada, total: number): { surge: number; batch: number } {
  const rolling = armada.spec.template.spec.strategy?.rollingUpdate;
  const resolve = (value: number | string | undefined, up: boolean) => {
    const v = value ?? '25%';
    if (typeof v === 'number') return v;
    const share = (Number.parseInt(v, 10) / 100) * total;
    return up ? Math.ceil(share) : Math.floor(share);
  };
  let surge = resolve(rolling?.maxSurge, true);
  const unavailable = resolve(rolling?.maxUnavailable, false);
  if (surge === 0 && unavailable === 0) surge = 1;
  return { surge, batch: surge + unavailable };
}

/**
 * Why the template cannot run, or undefined: the first container whose image
 * is missing from its branch, or whose servers crash on start.
 */
export function templateProblem(armada: Armada, images: ImageLookup): string | undefined {
  for (const c of armada.spec.template.spec.containers) {
    if (!c.branch || !c.image) continue;
    if (!images.hasImage(c.branch, c.image)) {
      return `container "${c.name}": image "${c.image}" not found in branch "${c.branch}"`;
    }
    const crash = images.crashReason?.(c.branch, c.image);
    if (crash) return `container "${c.name}" fails: ${crash}`;
  }
  return undefined;
}

interface TypeCounts {
  name: string;
  replicas: number;
  readyReplicas: number;
  allocatedReplicas: number;
}

/** The computed status at `now`: state, reason and the counts (our names; the real ones are not public). */
export function armadaStatus(rec: ArmadaRecord, now: number, s: LifecycleSettings, images: ImageLookup) {
  const regionTypes: TypeCounts[] = rec.armada.spec.distribution.map((d) => {
    const allocated = rec.allocated.get(d.name) ?? 0;
    const replicas = targetReplicas(d, allocated);
    const scaled = rec.scaled.get(d.name);
    const starting = scaled && now - scaled.at < s.stepMs ? Math.max(0, replicas - scaled.from) : 0;
    return {
      name: d.name,
      replicas,
      readyReplicas: Math.max(0, replicas - allocated - starting),
      allocatedReplicas: Math.min(allocated, replicas),
    };
  });
  const sum = (key: keyof Omit<TypeCounts, 'name'>) => regionTypes.reduce((n, t) => n + t[key], 0);
  const replicas = sum('replicas');
  const problem = templateProblem(rec.armada, images);
  let updated = replicas;
  let surge = 0;
  if (rec.rollout) {
    const { startedAt, total, batch } = rec.rollout;
    const waves = Math.floor((now - startedAt) / (2 * s.stepMs));
    updated = problem ? 0 : Math.min(replicas, waves * batch);
    if (updated < Math.min(total, replicas)) surge = rec.rollout.surge;
  }
  const starting = regionTypes.some((t) => t.readyReplicas + t.allocatedReplicas < t.replicas);
  const state = problem || updated < replicas ? 'Degraded' : 'Synced';
  const reason = problem
    ? problem
    : updated < replicas
      ? `rolling update: ${updated} of ${replicas} game servers updated`
      : undefined;
  return {
    state,
    ...(reason ? { reason } : {}),
    replicas: replicas + surge,
    readyReplicas: sum('readyReplicas'),
    allocatedReplicas: sum('allocatedReplicas'),
    updatedReplicas: updated,
    ...(starting ? { startingReplicas: replicas - sum('readyReplicas') - sum('allocatedReplicas') } : {}),
    regionTypes,
  };
}

/** A copy of the Armada with its status at `now`. */
export function armadaWithStatus(
  rec: ArmadaRecord,
  now: number,
  s: LifecycleSettings,
  images: ImageLookup,
): Armada {
  const copy = deepClone(rec.armada);
  copy.status = armadaStatus(rec, now, s, images);
  return copy;
}
