/** Formation endpoints: list, create, get (seed 7) and PATCH (seed 8), each followed by a reconcile. */
import type { Formation } from '../api-shapes/resources.js';
import { API_VERSIONS } from '../api-shapes/resources.js';
import { formationWithStatus } from './controller.js';
import { validateFormation } from './formation-validation.js';
import { readObjectBody } from './http-utils/body.js';
import { alreadyExists, notFound } from './http-utils/status.js';
import { type JsonObject, sortedByName } from './json.js';
import { patchedCopy } from './patch.js';
import type { Handler, SimServices } from './services.js';
import type { EnvironmentState } from './store.js';
import { checkImmutableMetadata, Problems, requireObjectBody } from './validation.js';

function findFormation(env: EnvironmentState, name: string): Formation {
  const formation = env.formations.get(name);
  if (!formation) throw notFound('Formation', name, `environment "${env.name}"`);
  return formation;
}

function view(svc: SimServices, env: EnvironmentState, formation: Formation): Formation {
  return formationWithStatus(env, formation, svc.clock.now(), svc.settings);
}

/** Stores a validated Formation under its name, keeping the uid and bumping the revision. */
export function storeFormation(
  svc: SimServices,
  env: EnvironmentState,
  formation: Formation,
  uid?: string,
): void {
  formation.metadata.uid = uid ?? svc.store.newUid();
  formation.metadata.revision = svc.store.nextRevision();
  env.formations.set(formation.metadata.name, formation);
}

/** GET .../environments/{env}/formations */
export const listFormations: Handler = (ctx, { env = '' }, svc) => {
  const environment = svc.store.environment(env);
  const items = sortedByName(environment.formations.values()).map((f) => view(svc, environment, f));
  ctx.json(200, { apiVersion: API_VERSIONS.formation, kind: 'FormationList', items });
};

/** GET .../environments/{env}/formations/{name} */
export const getFormation: Handler = (ctx, { env = '', name = '' }, svc) => {
  const environment = svc.store.environment(env);
  ctx.json(200, view(svc, environment, findFormation(environment, name)));
};

/** POST .../environments/{env}/formations */
export const createFormation: Handler = async (ctx, { env = '' }, svc) => {
  const environment = svc.store.environment(env);
  const formation = validateFormation(
    requireObjectBody(await readObjectBody(ctx.req)),
    env,
    svc.store,
    svc.settings,
  );
  if (environment.formations.has(formation.metadata.name))
    throw alreadyExists('Formation', formation.metadata.name);
  storeFormation(svc, environment, formation);
  svc.sync();
  ctx.json(201, view(svc, environment, formation));
};

/** PATCH .../environments/{env}/formations/{name}: JSON Patch or merge patch, validated, all or nothing. */
export const patchFormation: Handler = async (ctx, { env = '', name = '' }, svc) => {
  const environment = svc.store.environment(env);
  const current = findFormation(environment, name);
  const patched = await patchedCopy(ctx.req, 'Formation', current as JsonObject);
  const p = new Problems();
  checkImmutableMetadata(p, current as JsonObject, patched);
  p.throwIfAny('Formation', name);
  delete patched.status;
  const formation = validateFormation(patched, env, svc.store, svc.settings);
  storeFormation(svc, environment, formation, current.metadata.uid);
  svc.sync();
  ctx.json(200, view(svc, environment, formation));
};
