/** Vessel endpoints: create (seed 3), list (seed 4), get, delete (seed 6). */

import { API_VERSIONS } from '../api-shapes/resources.js';
import { siteProblem } from './controller.js';
import { readObjectBody } from './http-utils/body.js';
import { alreadyExists, notFound, SimError } from './http-utils/status.js';
import { markDeleting, vesselWithStatus } from './lifecycle.js';
import { matches, parseSelector } from './selectors.js';
import type { Handler, SimServices } from './services.js';
import type { EnvironmentState } from './store.js';
import { requireObjectBody } from './validation.js';
import { validateVessel } from './vessel-validation.js';

function findVessel(env: EnvironmentState, name: string) {
  const rec = env.vessels.get(name);
  if (!rec) throw notFound('Vessel', name, `environment "${env.name}"`);
  return rec;
}

function view(svc: SimServices, env: EnvironmentState, name: string) {
  return vesselWithStatus(findVessel(env, name), svc.clock.now(), svc.settings, svc.store);
}

/** GET .../environments/{env}/vessels (optional labelSelector) */
export const listVessels: Handler = (ctx, { env = '' }, svc) => {
  const environment = svc.store.environment(env);
  const selector = parseSelector(ctx.query.labelSelector, 'labelSelector');
  const now = svc.clock.now();
  const items = [...environment.vessels.values()]
    .filter((rec) => matches(selector, (key) => rec.vessel.metadata.labels?.[key]))
    .map((rec) => vesselWithStatus(rec, now, svc.settings, svc.store))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  ctx.json(200, { apiVersion: API_VERSIONS.formation, kind: 'VesselList', items });
};

/** GET .../environments/{env}/vessels/{name} */
export const getVessel: Handler = (ctx, { env = '', name = '' }, svc) => {
  ctx.json(200, view(svc, svc.store.environment(env), name));
};

/** POST .../environments/{env}/vessels: validate, store as Pending (or Error when no site fits). */
export const createVessel: Handler = async (ctx, { env = '' }, svc) => {
  const environment = svc.store.environment(env);
  const body = requireObjectBody(await readObjectBody(ctx.req));
  refuseApiVersion(body.apiVersion, svc.settings.refusedVesselApiVersions);
  const vessel = validateVessel(body, environment, svc.store);
  const name = vessel.metadata.name;
  if (environment.vessels.has(name)) throw alreadyExists('Vessel', name);
  const error = siteProblem(environment, vessel.spec.region);
  const rec = svc.store.addVessel(environment, vessel, svc.clock.now(), {
    createdByController: false,
    ...(error ? { error } : {}),
  });
  svc.sync();
  // The controller may already have marked it as an orphan; answer what is true now.
  ctx.json(201, vesselWithStatus(rec, svc.clock.now(), svc.settings, svc.store));
};

/** DELETE .../environments/{env}/vessels/{name}: Terminating, then gone after the termination time. */
export const deleteVessel: Handler = (ctx, { env = '', name = '' }, svc) => {
  const environment = svc.store.environment(env);
  const rec = findVessel(environment, name);
  markDeleting(rec, svc.clock.now(), 'UserInitiated');
  ctx.json(200, vesselWithStatus(rec, svc.clock.now(), svc.settings, svc.store));
};

/** A test that exercises the client's fallback names a Vessel apiVersion to refuse; the answer names it. */
function refuseApiVersion(apiVersion: unknown, refused: readonly string[]): void {
  if (typeof apiVersion === 'string' && refused.includes(apiVersion)) {
    throw new SimError(
      400,
      'BadRequest',
      `no kind "Vessel" is registered for version "${apiVersion}" in scheme; use one of the served versions`,
    );
  }
}
