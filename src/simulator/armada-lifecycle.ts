/**
 * An Armada's game servers, computed lazily from the injected clock like a
 * Vessel's lifecycle: a record keeps the spec, the allocated servers per
 * region type, when each type was last scaled and the rollout under way.
 *
 * Per region type the autoscaler keeps `min(max, max(min, allocated + buffer))`
 * servers; max 0 drains it: unallocated servers stop, allocated ones run on
 * until their match ends (docs armada-replicas-and-buffer.md "Scaling down").
 * New servers start for one step before they are Ready. A template change
 * rolls out in waves of maxSurge + maxUnavailable servers (RollingUpdate,
 * Kubernetes' IntOrString rules, 25%/25% by default), or replaces every
 * unallocated server at once (Recreate: a capacity dip), each wave two steps
 * long. The state is a sync state (docs glossary "State", "Degraded"): Synced
 * unless a Site of the Armada's region is unavailable. A build that cannot run
 * (image missing from its branch, or crashing on start) leaves the state
 * alone and shows as what the platform would report: new game servers that
 * never become Ready, 0 updated (inferred).
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
  /** Recreate: every unallocated server replaced at once. */
  recreate: boolean;
  /** What ran before: the revision and the images of its template (for the game server states). */
  from: { revision?: string; images: string[] };
}

export interface ArmadaRecord {
  /** The object as stored (no status). */
  armada: Armada;
  /** Game servers allocated to players, per region type (the simulated player load). */
  allocated: Map<string, number>;
  /** When each type's server count last changed, and from what. */
  scaled: Map<string, { from: number; at: number }>;
  rollout?: Rollout;
  /** Per region type, the numbers of game servers terminated by hand (their names are not reused). */
  terminated: Map<string, Set<number>>;
}

/** The servers a region type keeps with `allocated` of them in use. */
export function targetReplicas(d: Distribution, allocated: number): number {
  const max = d.maxReplicas ?? 0;
  // Allocated servers are never stopped by scaling: they run until their match ends.
  if (max === 0) return allocated;
  return Math.max(allocated, Math.min(max, Math.max(d.minReplicas ?? 0, allocated + (d.bufferSize ?? 0))));
}

/** A new record; demo and controller-made Armadas start settled, with half their minimum allocated. */
export function newArmadaRecord(armada: Armada): ArmadaRecord {
  const allocated = new Map(
    armada.spec.distribution.map((d) => [d.name, Math.floor((d.minReplicas ?? 0) / 2)]),
  );
  return { armada, allocated, scaled: new Map(), terminated: new Map() };
}

/** Stores a new spec: scaled types start new servers, a changed template starts a rollout. */
export function updateArmada(rec: ArmadaRecord, next: Armada, now: number): void {
  const before = rec.armada;
  for (const d of next.spec.distribution) {
    const old = before.spec.distribution.find((o) => o.name === d.name);
    // Allocated servers keep running when max drops below them (even to 0): only unallocated ones stop.
    const allocated = rec.allocated.get(d.name) ?? 0;
    const from = old ? targetReplicas(old, allocated) : 0;
    rec.allocated.set(d.name, allocated);
    if (targetReplicas(d, allocated) !== from) rec.scaled.set(d.name, { from, at: now });
  }
  if (stableStringify(before.spec.template) !== stableStringify(next.spec.template)) {
    const total = next.spec.distribution.reduce(
      (n, d) => n + targetReplicas(d, rec.allocated.get(d.name) ?? 0),
      0,
    );
    const from = {
      ...(before.metadata.revision !== undefined ? { revision: before.metadata.revision } : {}),
      images: before.spec.template.spec.containers.flatMap((c) => (c.image ? [c.image] : [])),
    };
    rec.rollout = { startedAt: now, total, ...waveSize(next, total), from };
  }
  rec.armada = next;
}

/** Kubernetes' resolution of maxSurge (rounded up) and maxUnavailable (rounded down), never both 0; Recreate: all at once. */
function waveSize(armada: Armada, total: number): { surge: number; batch: number; recreate: boolean } {
  if (armada.spec.template.spec.strategy?.type === 'Recreate')
    return { surge: 0, batch: total, recreate: true };
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
  return { surge, batch: surge + unavailable, recreate: false };
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

/** A Site the Armada's configuration cannot reach, as the status reason names it. */
export interface BlockedSite {
  name: string;
  state: string;
  reason?: string;
}

/**
 * The computed status at `now`: the sync state (Degraded when `blocked` Sites
 * cannot take the configuration) and the counts (our names; the real ones are
 * not public, and `publicStatus` drops them).
 */
export function armadaStatus(
  rec: ArmadaRecord,
  now: number,
  s: LifecycleSettings,
  images: ImageLookup,
  blocked: readonly BlockedSite[] = [],
  typeOrder: readonly string[] = [],
) {
  const problem = templateProblem(rec.armada, images);
  const rollout = rec.rollout;
  const waves = rollout ? Math.floor((now - rollout.startedAt) / (2 * s.stepMs)) : 0;
  // Recreate stops every unallocated server at once: until the first wave is up, none is Ready (the dip),
  // and for a build that cannot run, never.
  const dip = rollout?.recreate === true && (problem !== undefined || waves < 1);
  const regionTypes: TypeCounts[] = rec.armada.spec.distribution.map((d) => {
    const allocated = rec.allocated.get(d.name) ?? 0;
    const replicas = targetReplicas(d, allocated);
    const scaled = rec.scaled.get(d.name);
    const starting = scaled && now - scaled.at < s.stepMs ? Math.max(0, replicas - scaled.from) : 0;
    return {
      name: d.name,
      replicas,
      readyReplicas: dip ? 0 : Math.max(0, replicas - allocated - starting),
      allocatedReplicas: Math.min(allocated, replicas),
    };
  });
  const parking = scaleToZero(rec.armada, regionTypes, typeOrder);
  const sum = (key: keyof Omit<TypeCounts, 'name'>) => regionTypes.reduce((n, t) => n + t[key], 0);
  const replicas = sum('replicas');
  let updated = replicas;
  let surge = 0;
  if (rollout) {
    updated = problem ? 0 : Math.min(replicas, waves * rollout.batch);
    // The surge servers of a wave start on the new build; a build that cannot run keeps them never Ready.
    if (updated < Math.min(rollout.total, replicas)) surge = rollout.surge;
  }
  const starting = regionTypes.some((t) => t.readyReplicas + t.allocatedReplicas < t.replicas);
  const reason =
    blocked.length > 0
      ? `could not sync to ${blocked.map((b) => `site ${b.name} (${b.reason ? `${b.state}: ${b.reason}` : b.state})`).join(', ')}`
      : undefined;
  return {
    state: reason ? 'Degraded' : 'Synced',
    ...(reason ? { reason } : {}),
    replicas: replicas + surge,
    readyReplicas: sum('readyReplicas'),
    allocatedReplicas: sum('allocatedReplicas'),
    updatedReplicas: updated,
    ...(starting || surge > 0
      ? { startingReplicas: replicas + surge - sum('readyReplicas') - sum('allocatedReplicas') }
      : {}),
    regionTypes,
    ...(parking.length > 0 ? { scaleToZero: parking } : {}),
  };
}

/**
 * Scale to Zero (docs scale-to-zero.md), when `spec.autoscaling.scaleToZero`
 * is set: the highest-priority type, the one the Region lists first
 * (`typeOrder`, region-priority.ts), is never scaled down (ScaledUpLocked);
 * the others are parked at zero (ScaledToZero, only their allocated servers
 * left) while it has Ready servers, and scaled up in a panic (ScaleUpPanicked)
 * when it has none. A type the Region does not list ranks last. The states
 * keep the distribution's order; their place in the status is the
 * simulator's (inferred). Mutates `types`.
 */
function scaleToZero(
  armada: Armada,
  types: TypeCounts[],
  typeOrder: readonly string[],
): { regionType: string; state: string }[] {
  if (!armada.spec.autoscaling?.scaleToZero || types.length < 2) return [];
  const rank = (t: TypeCounts) => {
    const i = typeOrder.indexOf(t.name);
    return i === -1 ? typeOrder.length : i;
  };
  // Stable: types of equal rank (none listed by the Region) keep the distribution's order.
  const top = [...types].sort((a, b) => rank(a) - rank(b))[0] as TypeCounts;
  const panicked = top.readyReplicas === 0;
  for (const t of types) {
    if (t === top || panicked) continue;
    t.replicas = t.allocatedReplicas;
    t.readyReplicas = 0;
  }
  return types.map((t) => ({
    regionType: t.name,
    state: t === top ? 'ScaledUpLocked' : panicked ? 'ScaleUpPanicked' : 'ScaledToZero',
  }));
}

/**
 * The status as served: with counts, or (`counts` false, the public shape and
 * the default under `--real-shapes`) only the documented `state` and `reason`.
 */
export function publicStatus<T extends { state: string; reason?: string; scaleToZero?: unknown }>(
  status: T,
  counts: boolean,
) {
  if (counts) return status;
  // The Scale to Zero states are documented (their place is inferred): served in both modes.
  return {
    state: status.state,
    ...(status.reason ? { reason: status.reason } : {}),
    ...(status.scaleToZero ? { scaleToZero: status.scaleToZero } : {}),
  };
}

/** A copy of the Armada with its status at `now`. */
export function armadaWithStatus(
  rec: ArmadaRecord,
  now: number,
  s: LifecycleSettings & { fleetCounts: boolean },
  images: ImageLookup,
  blocked: readonly BlockedSite[] = [],
  typeOrder: readonly string[] = [],
): Armada {
  const copy = deepClone(rec.armada);
  copy.status = publicStatus(armadaStatus(rec, now, s, images, blocked, typeOrder), s.fleetCounts);
  return copy;
}
