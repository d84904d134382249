/**
 * The Formation controller. `reconcile` is run before each request and after
 * each write, which makes it deterministic: it creates listed Vessels from the
 * template (with that entry's overrides and an owner reference), restarts
 * Vessels whose desired spec changed, and deletes owned Vessels no longer
 * listed as well as Vessels whose owner reference names a Formation that does
 * not list them (seed rule 1).
 */
import type {
  Container,
  Formation,
  FormationVessel,
  Vessel,
  VesselTemplate,
} from '../api-shapes/resources.js';
import { deepClone, stableStringify } from './json.js';
import {
  formationOwner,
  type LifecycleSettings,
  markDeleting,
  NO_SUITABLE_SITE,
  type VesselRecord,
  vesselPhase,
} from './lifecycle.js';
import { type OverrideSettings, overriddenContainer, SEED_OVERRIDES } from './overrides.js';
import type { EnvironmentState, SimStore } from './store.js';

/** What the controller needs to know: lifecycle timing and how overrides are read. */
type ControllerSettings = LifecycleSettings & Partial<OverrideSettings>;

interface ReconcileOptions {
  /** Treat Vessels created now as already Running (used once at start-up, for demo data). */
  settle?: boolean;
}

/** Why no site fits a Vessel in `region`, or undefined when one does. */
export function siteProblem(env: EnvironmentState, region: string): string | undefined {
  const found = env.regions.get(region);
  if (!found?.spec.types.some((t) => (t.locations ?? []).length > 0)) return NO_SUITABLE_SITE;
  return undefined;
}

/**
 * The template's containers with an entry's overrides applied: image, args
 * and command replace the inherited ones, env variables by name, in the container each entry names or, when
 * matching by position, in the container at the entry's index.
 */
export function applyOverrides(
  template: VesselTemplate,
  entry: FormationVessel,
  matching: OverrideSettings['overrideMatching'] = 'name',
): VesselTemplate {
  const result = deepClone(template);
  for (const [i, override] of (entry.override?.containers ?? []).entries()) {
    const container = overriddenContainer<Container>(result.spec.containers, override, i, matching);
    if (!container) continue; // validation rejects unknown names; data loaded earlier may still hold one
    if (override.image !== undefined) container.image = override.image;
    if (override.args !== undefined) container.args = [...override.args];
    if (override.command !== undefined) container.command = [...override.command];
    // Variables the override names replace the template's of that name; the others stay.
    if (override.env !== undefined) {
      const names = new Set(override.env.map((e) => e.name));
      container.env = [...(container.env ?? []).filter((e) => !names.has(e.name)), ...override.env];
    }
  }
  return result;
}

/** The Vessel a Formation entry should have. */
export function desiredVessel(
  env: string,
  formation: Formation,
  entry: FormationVessel,
  matching: OverrideSettings['overrideMatching'] = 'name',
): Vessel {
  const template = formation.spec.template ?? { spec: { containers: [] } };
  const labels = entry.override?.labels;
  return {
    apiVersion: 'formation/v1',
    kind: 'Vessel',
    metadata: {
      name: entry.name,
      environment: env,
      ...(labels ? { labels: { ...labels } } : {}),
      ownerReferences: [
        {
          apiVersion: 'formation/v1',
          kind: 'Formation',
          name: formation.metadata.name,
          ...(formation.metadata.uid ? { uid: formation.metadata.uid } : {}),
          controller: true,
        },
      ],
    },
    spec: {
      region: entry.region,
      ...(entry.description !== undefined ? { description: entry.description } : {}),
      ...(entry.suspend !== undefined ? { suspend: entry.suspend } : {}),
      template: applyOverrides(template, entry, matching),
    },
  };
}

/** Brings every environment's Vessels in line with its Formations. */
export function reconcile(
  store: SimStore,
  now: number,
  s: ControllerSettings,
  options: ReconcileOptions = {},
): void {
  for (const env of store.environments.values()) {
    for (const formation of env.formations.values())
      reconcileFormation(store, env, formation, now, s, options);
    deleteOrphans(env, now);
  }
}

function reconcileFormation(
  store: SimStore,
  env: EnvironmentState,
  formation: Formation,
  now: number,
  s: ControllerSettings,
  options: ReconcileOptions,
): void {
  const matching = s.overrideMatching ?? SEED_OVERRIDES.overrideMatching;
  for (const entry of formation.spec.vessels) {
    const desired = desiredVessel(env.name, formation, entry, matching);
    const rec = env.vessels.get(entry.name);
    if (!rec) {
      const error = siteProblem(env, entry.region);
      const startedAt = options.settle ? now - 4 * s.stepMs : now;
      store.addVessel(env, desired, now, {
        createdByController: true,
        startedAt,
        ...(error ? { error } : {}),
      });
      continue;
    }
    // A Vessel someone else owns, or one still terminating, is left alone (the Formation shows Degraded).
    if (formationOwner(rec.vessel) !== formation.metadata.name || rec.deletedAt !== undefined) continue;
    if (specChanged(rec.vessel, desired)) {
      rec.vessel = { ...desired, metadata: { ...desired.metadata, uid: rec.vessel.metadata.uid } };
      rec.vessel.metadata.revision = store.nextRevision();
      restart(rec, now, siteProblem(env, entry.region));
    } else if (rec.error === NO_SUITABLE_SITE && !siteProblem(env, entry.region)) {
      restart(rec, now, undefined); // Error -> Pending on retry once a site fits
    }
  }
}

function specChanged(current: Vessel, desired: Vessel): boolean {
  return (
    stableStringify(current.spec) !== stableStringify(desired.spec) ||
    stableStringify(current.metadata.labels ?? {}) !== stableStringify(desired.metadata.labels ?? {})
  );
}

function restart(rec: VesselRecord, now: number, error: string | undefined): void {
  rec.startedAt = now;
  if (error) rec.error = error;
  else delete rec.error;
}

function deleteOrphans(env: EnvironmentState, now: number): void {
  for (const rec of env.vessels.values()) {
    if (rec.deletedAt !== undefined) continue;
    const owner = formationOwner(rec.vessel);
    if (owner === undefined) continue;
    const formation = env.formations.get(owner);
    if (formation?.spec.vessels.some((v) => v.name === rec.vessel.metadata.name)) continue;
    // Removed from a Formation it was created for: a spec change; otherwise an orphan (seed rule 1).
    markDeleting(rec, now, rec.createdByController && formation ? 'SpecChange' : 'Orphaned');
  }
}

/** Synced when every listed Vessel exists, is owned by the Formation and is not in Error; else Degraded. */
function formationStatus(
  env: EnvironmentState,
  formation: Formation,
  now: number,
  s: LifecycleSettings,
): { state: 'Synced' | 'Degraded'; reason?: string } {
  for (const entry of formation.spec.vessels) {
    const rec = env.vessels.get(entry.name);
    if (!rec) return { state: 'Degraded', reason: `vessel "${entry.name}" is missing` };
    if (formationOwner(rec.vessel) !== formation.metadata.name) {
      return {
        state: 'Degraded',
        reason: `vessel "${entry.name}" exists and is not owned by this Formation`,
      };
    }
    const phase = vesselPhase(rec, now, s);
    if (phase?.state === 'Error')
      return { state: 'Degraded', reason: `vessel "${entry.name}": ${phase.reason}` };
    if (phase?.state === 'Terminating')
      return { state: 'Degraded', reason: `vessel "${entry.name}" is terminating` };
  }
  return { state: 'Synced' };
}

/** A copy of the Formation with its computed status. */
export function formationWithStatus(
  env: EnvironmentState,
  formation: Formation,
  now: number,
  s: LifecycleSettings,
): Formation {
  const copy = deepClone(formation);
  copy.status = formationStatus(env, formation, now, s);
  return copy;
}
