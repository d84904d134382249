/**
 * Armada, ArmadaSet, ImageUpdater and Environment endpoints. Writes are
 * validated whole after the patch (all or nothing, like Formations) and
 * followed by a sync, so the controllers act before the answer is sent.
 */
import { ARMADA_API_VERSION, type Armada, type ArmadaSet } from '../api-shapes/armada-resources.js';
import { API_VERSIONS } from '../api-shapes/resources.js';
import { armadaSetWithStatus } from './armada-controller.js';
import { armadaWithStatus, newArmadaRecord, updateArmada } from './armada-lifecycle.js';
import { validateArmada, validateArmadaSet } from './armada-validation.js';
import { readObjectBody } from './http-utils/body.js';
import { alreadyExists, notFound, SimError } from './http-utils/status.js';
import { deepClone, type JsonObject, sortedByName } from './json.js';
import { patchedCopy } from './patch.js';
import { regionTypeOrder } from './region-priority.js';
import type { Handler, SimServices } from './services.js';
import { blockedSites } from './sites.js';
import type { EnvironmentState } from './store.js';
import { checkImmutableMetadata, Problems, requireObjectBody } from './validation.js';

function armadaView(svc: SimServices, env: EnvironmentState, name: string): Armada {
  const rec = env.armadas.get(name);
  if (!rec) throw notFound('Armada', name, `environment "${env.name}"`);
  return armadaWithStatus(
    rec,
    svc.clock.now(),
    svc.settings,
    svc.store,
    blockedSites(svc.store, env.name, rec.armada),
    regionTypeOrder(env, rec.armada),
  );
}

function setView(svc: SimServices, env: EnvironmentState, set: ArmadaSet): ArmadaSet {
  return armadaSetWithStatus(env, set, svc.clock.now(), svc.settings, svc.store);
}

function findSet(env: EnvironmentState, name: string): ArmadaSet {
  const set = env.armadaSets.get(name);
  if (!set) throw notFound('ArmadaSet', name, `environment "${env.name}"`);
  return set;
}

/**
 * A patch that carries another `metadata.revision` than the stored one was
 * built on an older read: 409 Conflict, as Kubernetes answers a stale
 * resourceVersion (the precondition a merge patch can carry; inferred).
 */
function checkRevision(kind: string, name: string, stored: string | undefined, patched: JsonObject): void {
  const meta = patched.metadata as { revision?: unknown } | undefined;
  if (meta?.revision !== undefined && meta.revision !== stored) {
    throw new SimError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${kind} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    );
  }
}

/** Stores a new standalone Armada (uid and revision set here). */
export function storeNewArmada(svc: SimServices, env: EnvironmentState, armada: Armada): void {
  armada.metadata.uid = svc.store.newUid();
  armada.metadata.revision = svc.store.nextRevision();
  env.armadas.set(armada.metadata.name, newArmadaRecord(armada));
}

/** Stores an ArmadaSet, keeping the uid and bumping the revision. */
export function storeArmadaSet(svc: SimServices, env: EnvironmentState, set: ArmadaSet, uid?: string): void {
  set.metadata.uid = uid ?? svc.store.newUid();
  set.metadata.revision = svc.store.nextRevision();
  env.armadaSets.set(set.metadata.name, set);
}

/** GET .../armadas */
export const listArmadas: Handler = (ctx, { env = '' }, svc) => {
  const environment = svc.store.environment(env);
  const items = [...environment.armadas.keys()].sort().map((name) => armadaView(svc, environment, name));
  ctx.json(200, { apiVersion: ARMADA_API_VERSION, kind: 'ArmadaList', items });
};

/** GET .../armadas/{name} */
export const getArmada: Handler = (ctx, { env = '', name = '' }, svc) => {
  ctx.json(200, armadaView(svc, svc.store.environment(env), name));
};

/** POST .../armadas */
export const createArmada: Handler = async (ctx, { env = '' }, svc) => {
  const environment = svc.store.environment(env);
  const armada = validateArmada(requireObjectBody(await readObjectBody(ctx.req)), environment, svc.store);
  if (environment.armadas.has(armada.metadata.name)) throw alreadyExists('Armada', armada.metadata.name);
  storeNewArmada(svc, environment, armada);
  svc.sync();
  ctx.json(201, armadaView(svc, environment, armada.metadata.name));
};

/** PATCH .../armadas/{name}: JSON Patch or merge patch, validated whole. */
export const patchArmada: Handler = async (ctx, { env = '', name = '' }, svc) => {
  const environment = svc.store.environment(env);
  const rec = environment.armadas.get(name);
  if (!rec) throw notFound('Armada', name, `environment "${env}"`);
  const patched = await patchedCopy(ctx.req, 'Armada', rec.armada as unknown as JsonObject);
  checkRevision('Armada', name, rec.armada.metadata.revision, patched);
  const p = new Problems();
  checkImmutableMetadata(p, rec.armada as unknown as JsonObject, patched);
  p.throwIfAny('Armada', name);
  delete patched.status;
  const armada = validateArmada(patched, environment, svc.store);
  armada.metadata.uid = rec.armada.metadata.uid;
  armada.metadata.revision = svc.store.nextRevision();
  updateArmada(rec, armada, svc.clock.now());
  // An ArmadaSet's controller puts its own Armadas back, as the real one does.
  svc.sync();
  ctx.json(200, armadaView(svc, environment, name));
};

/** DELETE .../armadas/{name} */
export const deleteArmada: Handler = (ctx, { env = '', name = '' }, svc) => {
  const environment = svc.store.environment(env);
  const view = armadaView(svc, environment, name);
  environment.armadas.delete(name);
  svc.sync();
  ctx.json(200, view);
};

/** GET .../armadasets */
export const listArmadaSets: Handler = (ctx, { env = '' }, svc) => {
  const environment = svc.store.environment(env);
  const items = sortedByName(environment.armadaSets.values()).map((s) => setView(svc, environment, s));
  ctx.json(200, { apiVersion: ARMADA_API_VERSION, kind: 'ArmadaSetList', items });
};

/** GET .../armadasets/{name} */
export const getArmadaSet: Handler = (ctx, { env = '', name = '' }, svc) => {
  const environment = svc.store.environment(env);
  ctx.json(200, setView(svc, environment, findSet(environment, name)));
};

/** POST .../armadasets */
export const createArmadaSet: Handler = async (ctx, { env = '' }, svc) => {
  const environment = svc.store.environment(env);
  const set = validateArmadaSet(requireObjectBody(await readObjectBody(ctx.req)), environment, svc.store);
  if (environment.armadaSets.has(set.metadata.name)) throw alreadyExists('ArmadaSet', set.metadata.name);
  storeArmadaSet(svc, environment, set);
  svc.sync();
  ctx.json(201, setView(svc, environment, set));
};

/** PATCH .../armadasets/{name} */
export const patchArmadaSet: Handler = async (ctx, { env = '', name = '' }, svc) => {
  const environment = svc.store.environment(env);
  const current = findSet(environment, name);
  const patched = await patchedCopy(ctx.req, 'ArmadaSet', current as unknown as JsonObject);
  checkRevision('ArmadaSet', name, current.metadata.revision, patched);
  const p = new Problems();
  checkImmutableMetadata(p, current as unknown as JsonObject, patched);
  p.throwIfAny('ArmadaSet', name);
  delete patched.status;
  const set = validateArmadaSet(patched, environment, svc.store);
  storeArmadaSet(svc, environment, set, current.metadata.uid);
  svc.sync();
  ctx.json(200, setView(svc, environment, set));
};

/** DELETE .../armadasets/{name}: its Armadas go with it. */
export const deleteArmadaSet: Handler = (ctx, { env = '', name = '' }, svc) => {
  const environment = svc.store.environment(env);
  const view = setView(svc, environment, findSet(environment, name));
  environment.armadaSets.delete(name);
  svc.sync();
  ctx.json(200, view);
};

/** GET /api/container/v1/environments/{env}/imageupdaters */
export const listImageUpdaters: Handler = (ctx, { env = '' }, svc) => {
  const items = deepClone(sortedByName(svc.store.environment(env).imageUpdaters.values()));
  ctx.json(200, { apiVersion: API_VERSIONS.container, kind: 'ImageUpdaterList', items });
};

/** GET /api/core/v1/environments */
export const listEnvironments: Handler = (ctx, _params, svc) => {
  const items = [...svc.store.environments.keys()].sort().map((name) => ({
    apiVersion: API_VERSIONS.core,
    kind: 'Environment',
    metadata: { name },
    spec: { displayName: svc.store.environmentDisplayNames.get(name) ?? name },
  }));
  ctx.json(200, { apiVersion: API_VERSIONS.core, kind: 'EnvironmentList', items });
};
