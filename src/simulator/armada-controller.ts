/**
 * The ArmadaSet and ImageUpdater controllers, run with the Formation
 * controller on every sync. An ArmadaSet owns one Armada per listed region
 * (named `<set>-<region>`, with an ownerReference of kind ArmadaSet) and puts
 * its distribution and template back whenever they drift; an Armada it no
 * longer lists is deleted. An ImageUpdater remembers the newest image of its
 * name in its branch; when a newer one appears (a push or a promotion) it
 * sets that image in its target's containers of that branch and image name.
 */
import {
  ARMADA_API_VERSION,
  type Armada,
  type ArmadaSet,
  armadaSetOwner,
  type ImageUpdater,
} from '../api-shapes/armada-resources.js';
import type { Container } from '../api-shapes/resources.js';
import {
  type ArmadaRecord,
  armadaStatus,
  newArmadaRecord,
  publicStatus,
  updateArmada,
} from './armada-lifecycle.js';
import { deepClone, stableStringify } from './json.js';
import type { LifecycleSettings } from './lifecycle.js';
import { regionTypeOrder } from './region-priority.js';
import { blockedSites } from './sites.js';
import type { EnvironmentState, SimStore } from './store.js';

/** The name of the Armada an ArmadaSet runs in `region`. */
export function ownedArmadaName(set: string, region: string): string {
  return `${set}-${region}`;
}

function desiredArmada(env: string, set: ArmadaSet, entry: ArmadaSet['spec']['armadas'][number]): Armada {
  return {
    apiVersion: ARMADA_API_VERSION,
    kind: 'Armada',
    metadata: {
      name: ownedArmadaName(set.metadata.name, entry.region),
      environment: env,
      ownerReferences: [
        {
          apiVersion: ARMADA_API_VERSION,
          kind: 'ArmadaSet',
          name: set.metadata.name,
          ...(set.metadata.uid ? { uid: set.metadata.uid } : {}),
          controller: true,
        },
      ],
    },
    spec: {
      region: entry.region,
      distribution: deepClone(entry.distribution),
      ...(set.spec.autoscaling ? { autoscaling: deepClone(set.spec.autoscaling) } : {}),
      template: deepClone(set.spec.template),
    },
  };
}

/** Creates, updates and deletes the Armadas of every ArmadaSet. */
export function reconcileArmadaSets(store: SimStore, now: number): void {
  for (const env of store.environments.values()) {
    for (const set of env.armadaSets.values()) {
      for (const entry of set.spec.armadas) {
        const desired = desiredArmada(env.name, set, entry);
        const rec = env.armadas.get(desired.metadata.name);
        if (!rec) {
          desired.metadata.uid = store.newUid();
          desired.metadata.revision = store.nextRevision();
          env.armadas.set(desired.metadata.name, newArmadaRecord(desired));
        } else if (armadaSetOwner(rec.armada) === set.metadata.name && specDiffers(rec.armada, desired)) {
          desired.metadata.uid = rec.armada.metadata.uid;
          desired.metadata.revision = store.nextRevision();
          updateArmada(rec, desired, now);
        }
      }
    }
    for (const [name, rec] of env.armadas) {
      const owner = armadaSetOwner(rec.armada);
      if (owner === undefined) continue;
      const set = env.armadaSets.get(owner);
      if (!set?.spec.armadas.some((a) => ownedArmadaName(owner, a.region) === name)) env.armadas.delete(name);
    }
  }
}

function specDiffers(current: Armada, desired: Armada): boolean {
  return stableStringify(current.spec) !== stableStringify(desired.spec);
}

/**
 * Synced when every region's Armada exists, is owned by the set and is
 * Synced, else Degraded with the first reason; with counts, their sums (the
 * simulator's; the real ArmadaSet status is read as it is, not summed).
 */
export function armadaSetWithStatus(
  env: EnvironmentState,
  set: ArmadaSet,
  now: number,
  s: LifecycleSettings & { fleetCounts: boolean },
  store: SimStore,
): ArmadaSet {
  const copy = deepClone(set);
  let reason: string | undefined;
  const totals = { replicas: 0, readyReplicas: 0, allocatedReplicas: 0, updatedReplicas: 0 };
  for (const entry of set.spec.armadas) {
    const name = ownedArmadaName(set.metadata.name, entry.region);
    const rec = env.armadas.get(name);
    if (!rec || armadaSetOwner(rec.armada) !== set.metadata.name) {
      reason ??= rec
        ? `armada "${name}" exists and is not owned by this ArmadaSet`
        : `armada "${name}" is missing`;
      continue;
    }
    const status = armadaStatus(
      rec,
      now,
      s,
      store,
      blockedSites(store, env.name, rec.armada),
      regionTypeOrder(env, rec.armada),
    );
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += status[key];
    if (status.state !== 'Synced') reason ??= `armada "${name}": ${status.reason ?? status.state}`;
  }
  copy.status = publicStatus(
    { state: reason ? 'Degraded' : 'Synced', ...(reason ? { reason } : {}), ...totals },
    s.fleetCounts,
  );
  return copy;
}

/** Per ImageUpdater (by environment and name): the revision of the newest matching image it has seen. */
export type UpdaterMemory = Map<string, number>;

function newestImage(store: SimStore, branch: string, imageName: string) {
  let best: { name: string; revision: number } | undefined;
  for (const image of store.branches.get(branch)?.values() ?? []) {
    const revision = Number(image.metadata.revision ?? 0);
    if (image.spec.image === imageName && (!best || revision > best.revision)) {
      best = { name: image.metadata.name, revision };
    }
  }
  return best;
}

/** Remembers what each ImageUpdater sees now, so only images that appear later roll anything out. */
export function rememberImages(store: SimStore, memory: UpdaterMemory): void {
  for (const env of store.environments.values()) {
    for (const u of env.imageUpdaters.values()) {
      const key = `${env.name}/${u.metadata.name}`;
      if (!memory.has(key))
        memory.set(key, newestImage(store, u.spec.branch, u.spec.imageName)?.revision ?? 0);
    }
  }
}

/** Rolls out each ImageUpdater's target when a newer image of its name appeared in its branch. */
export function runImageUpdaters(store: SimStore, memory: UpdaterMemory, now: number): void {
  for (const env of store.environments.values()) {
    for (const u of env.imageUpdaters.values()) {
      const key = `${env.name}/${u.metadata.name}`;
      const newest = newestImage(store, u.spec.branch, u.spec.imageName);
      if (!newest || newest.revision <= (memory.get(key) ?? 0)) continue;
      memory.set(key, newest.revision);
      rollOut(store, env, u, newest.name, now);
      // What it applied, as the status shows it (field names inferred; see docs/gamefabric-compatibility.md).
      const image = store.branches.get(u.spec.branch)?.get(newest.name);
      u.status = {
        state: 'Ready',
        lastUpdate: {
          image: image ? `${image.spec.image}:${image.spec.tag}` : newest.name,
          time: new Date(now).toISOString(),
        },
      };
    }
  }
}

// Only containers of the updater's branch that run an image of its name are switched.
function switchImages(store: SimStore, u: ImageUpdater, containers: Container[], image: string): boolean {
  let changed = false;
  for (const c of containers) {
    if (c.branch !== u.spec.branch || c.image === image) continue;
    const current = c.image ? store.branches.get(c.branch)?.get(c.image) : undefined;
    if (current && current.spec.image !== u.spec.imageName) continue;
    c.image = image;
    changed = true;
  }
  return changed;
}

function rollOut(store: SimStore, env: EnvironmentState, u: ImageUpdater, image: string, now: number): void {
  const { kind, name } = u.spec.targetRef;
  if (kind === 'Armada') {
    const rec = env.armadas.get(name);
    if (!rec) return;
    const next = deepClone(rec.armada);
    if (switchImages(store, u, next.spec.template.spec.containers, image)) bump(store, rec, next, now);
  } else if (kind === 'ArmadaSet') {
    const set = env.armadaSets.get(name);
    if (set && switchImages(store, u, set.spec.template.spec.containers, image)) {
      set.metadata.revision = store.nextRevision();
    }
  } else if (kind === 'Formation') {
    const formation = env.formations.get(name);
    if (formation?.spec.template && switchImages(store, u, formation.spec.template.spec.containers, image)) {
      formation.metadata.revision = store.nextRevision();
    }
  } else if (kind === 'Vessel') {
    const rec = env.vessels.get(name);
    if (
      rec &&
      rec.deletedAt === undefined &&
      switchImages(store, u, rec.vessel.spec.template.spec.containers, image)
    ) {
      rec.vessel.metadata.revision = store.nextRevision();
      rec.startedAt = now; // a spec change restarts the Vessel
    }
  }
}

function bump(store: SimStore, rec: ArmadaRecord, next: Armada, now: number): void {
  next.metadata.revision = store.nextRevision();
  updateArmada(rec, next, now);
}
