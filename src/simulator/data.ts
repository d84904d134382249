/**
 * Initial state: a shape check for data files, and loading data through the
 * same validation as the API so a bad file fails at start-up naming the object
 * and field.
 */
import { z } from 'zod';
import { LocationSchema } from '../api-shapes/armada-resources.js';
import { nameProblem } from '../api-shapes/names.js';
import { API_VERSIONS, type Image } from '../api-shapes/resources.js';
import { validateArmada, validateArmadaSet, validateImageUpdater } from './armada-validation.js';
import { storeArmadaSet, storeNewArmada } from './armadas.js';
import { siteProblem } from './controller.js';
import { validateFormation } from './formation-validation.js';
import { storeFormation } from './formations.js';
import { internalImageName } from './image-names.js';
import { putImage } from './images.js';
import { deepClone, isRecord, type JsonObject } from './json.js';
import { storeRegion, validateRegion } from './regions.js';
import type { SimServices } from './services.js';
import type { SimulatorData } from './types.js';
import { validateVessel } from './vessel-validation.js';

const objects = z.array(z.looseObject({}));
const SimulatorDataSchema = z.strictObject({
  branches: z.record(z.string(), objects),
  branchDisplayNames: z.record(z.string(), z.string()).optional(),
  environments: z.record(
    z.string(),
    z.strictObject({
      regions: objects.optional(),
      formations: objects.optional(),
      vessels: objects.optional(),
      armadas: objects.optional(),
      armadaSets: objects.optional(),
      imageUpdaters: objects.optional(),
    }),
  ),
  locations: objects.optional(),
  serviceAccounts: z.array(z.looseObject({})).optional(),
});

/** Checks the outline of a data file (objects are checked in detail when loaded); throws naming the path. */
export function parseSimulatorData(value: unknown): SimulatorData {
  const result = SimulatorDataSchema.safeParse(value);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || '<root>'}: ${i.message}`);
    throw new Error(`invalid simulator data: ${problems.join('; ')}`);
  }
  return result.data as unknown as SimulatorData;
}

function at<T>(where: string, action: () => T): T {
  try {
    return action();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`invalid simulator data at ${where}: ${message}`);
  }
}

function checkScopeName(where: string, name: string): void {
  const problem = nameProblem(name);
  if (problem) throw new Error(`invalid simulator data at ${where}: name "${name}" ${problem}`);
}

/** An Image from data, with defaults: internal name from branch/image/tag, apiVersion and kind. */
function dataImage(branch: string, value: unknown): Image {
  if (!isRecord(value) || !isRecord(value.spec)) throw new Error('an image needs spec.image and spec.tag');
  const { image, tag } = value.spec;
  if (typeof image !== 'string' || image === '' || typeof tag !== 'string' || tag === '') {
    throw new Error('an image needs spec.image and spec.tag (non-empty strings)');
  }
  const copy = deepClone(value) as JsonObject;
  const metadata = isRecord(copy.metadata) ? copy.metadata : {};
  const name =
    typeof metadata.name === 'string' && metadata.name !== ''
      ? metadata.name
      : internalImageName(branch, image, tag);
  return {
    ...copy,
    apiVersion: API_VERSIONS.container,
    kind: 'Image',
    metadata: { ...metadata, name, branch },
    spec: copy.spec as Image['spec'],
  };
}

/** A data image that names its own object may share its image:tag with others, as on the real service. */
function hasOwnName(value: unknown): boolean {
  return isRecord(value) && isRecord(value.metadata) && typeof value.metadata.name === 'string';
}

/** Loads data into empty state: branches and images, then per environment Regions, Formations, Vessels. */
export function loadData(svc: SimServices, data: SimulatorData): void {
  const { store } = svc;
  const now = svc.clock.now();
  for (const [branch, images] of Object.entries(data.branches)) {
    checkScopeName(`branches.${branch}`, branch);
    store.addBranch(branch);
    for (const [i, image] of images.entries()) {
      at(`branches.${branch}[${i}]`, () =>
        putImage(store, branch, dataImage(branch, image), hasOwnName(image)),
      );
    }
  }
  for (const [branch, displayName] of Object.entries(data.branchDisplayNames ?? {})) {
    if (!store.hasBranch(branch))
      throw new Error(`invalid simulator data at branchDisplayNames.${branch}: no such branch`);
    store.branchDisplayNames.set(branch, displayName);
  }
  for (const [name, env] of Object.entries(data.environments)) {
    checkScopeName(`environments.${name}`, name);
    const state = store.addEnvironment(name);
    for (const [i, region] of (env.regions ?? []).entries()) {
      at(`environments.${name}.regions[${i}]`, () => {
        const valid = validateRegion(region as unknown as JsonObject, name, svc.settings.realShapes);
        if (state.regions.has(valid.metadata.name))
          throw new Error(`duplicate Region "${valid.metadata.name}"`);
        storeRegion(svc, state, valid);
      });
    }
    for (const [i, formation] of (env.formations ?? []).entries()) {
      at(`environments.${name}.formations[${i}]`, () => {
        const valid = validateFormation(formation as unknown as JsonObject, name, store, svc.settings);
        if (state.formations.has(valid.metadata.name))
          throw new Error(`duplicate Formation "${valid.metadata.name}"`);
        storeFormation(svc, state, valid);
      });
    }
    for (const [i, vessel] of (env.vessels ?? []).entries()) {
      at(`environments.${name}.vessels[${i}]`, () => {
        const valid = validateVessel(vessel as unknown as JsonObject, state, store);
        if (state.vessels.has(valid.metadata.name))
          throw new Error(`duplicate Vessel "${valid.metadata.name}"`);
        const error = siteProblem(state, valid.spec.region);
        // Vessels in start-up data are already up (Running), so demos do not begin with a wait.
        store.addVessel(state, valid, now, {
          createdByController: false,
          startedAt: now - 4 * svc.settings.stepMs,
          ...(error ? { error } : {}),
        });
      });
    }
  }
  for (const [i, location] of (data.locations ?? []).entries()) {
    at(`locations[${i}]`, () => storeLocation(svc, location));
  }
  for (const [name, env] of Object.entries(data.environments)) loadFleets(svc, name, env);
  for (const [i, account] of (data.serviceAccounts ?? []).entries()) {
    at(`serviceAccounts[${i}]`, () => svc.auth.addAccount(account));
  }
}

/** A Location from data: a valid name and `spec.sites`, a list of Site names. */
function storeLocation(svc: SimServices, value: unknown): void {
  const parsed = LocationSchema.safeParse(value);
  if (!parsed.success)
    throw new Error('a Location needs metadata.name and spec.sites (a list of Site names)');
  const name = parsed.data.metadata.name;
  const problem = nameProblem(name);
  if (problem) throw new Error(`name "${name}" ${problem}`);
  if (svc.store.locations.has(name)) throw new Error(`duplicate Location "${name}"`);
  const sites = parsed.data.spec?.sites ?? [];
  for (const site of sites) {
    const bad = nameProblem(site);
    if (bad) throw new Error(`site "${site}" ${bad}`);
  }
  svc.store.locations.set(name, {
    apiVersion: API_VERSIONS.core,
    kind: 'Location',
    metadata: { name },
    spec: { sites: [...sites] },
  });
}

/** Armadas, ArmadaSets and ImageUpdaters of one environment, validated as the API validates them. */
function loadFleets(svc: SimServices, name: string, env: SimulatorData['environments'][string]): void {
  const state = svc.store.environment(name);
  const where = (kind: string, i: number) => `environments.${name}.${kind}[${i}]`;
  for (const [i, armada] of (env.armadas ?? []).entries()) {
    at(where('armadas', i), () => {
      const valid = validateArmada(armada as unknown as JsonObject, state, svc.store);
      if (state.armadas.has(valid.metadata.name))
        throw new Error(`duplicate Armada "${valid.metadata.name}"`);
      storeNewArmada(svc, state, valid);
    });
  }
  for (const [i, set] of (env.armadaSets ?? []).entries()) {
    at(where('armadaSets', i), () => {
      const valid = validateArmadaSet(set as unknown as JsonObject, state, svc.store);
      if (state.armadaSets.has(valid.metadata.name))
        throw new Error(`duplicate ArmadaSet "${valid.metadata.name}"`);
      storeArmadaSet(svc, state, valid);
    });
  }
  for (const [i, updater] of (env.imageUpdaters ?? []).entries()) {
    at(where('imageUpdaters', i), () => {
      const valid = validateImageUpdater(updater as unknown as JsonObject, state, svc.store);
      if (state.imageUpdaters.has(valid.metadata.name))
        throw new Error(`duplicate ImageUpdater "${valid.metadata.name}"`);
      valid.metadata.uid = svc.store.newUid();
      state.imageUpdaters.set(valid.metadata.name, valid);
    });
  }
}
