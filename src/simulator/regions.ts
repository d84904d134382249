/**
 * Region endpoints: list, create (seed 9), get and PATCH. Region names are at
 * most 24 characters; each Region Type's `template.scheduling` defaults to
 * Packed and accepts only Packed or Distributed.
 */
import { MAX_REGION_NAME_LENGTH } from '../api-shapes/names.js';
import { API_VERSIONS, type Region, SCHEDULING_STRATEGIES } from '../api-shapes/resources.js';
import { checkEnum } from './containers.js';
import { readObjectBody } from './http-utils/body.js';
import { alreadyExists, notFound } from './http-utils/status.js';
import { deepClone, isRecord, type JsonObject, sortedByName } from './json.js';
import { patchedCopy } from './patch.js';
import type { Handler, SimServices } from './services.js';
import type { EnvironmentState } from './store.js';
import {
  checkEnvelope,
  checkImmutableMetadata,
  optionalObject,
  optionalString,
  optionalStringArray,
  Problems,
  requiredString,
  requireObjectBody,
} from './validation.js';

/**
 * A validated copy with defaults filled (locations [], scheduling Packed); 422
 * otherwise. With `asStored` (real shapes) nothing is filled in: the real API
 * returns a type without a template, or with an empty scheduling, as stored.
 */
export function validateRegion(body: JsonObject, environment: string, asStored = false): Region {
  const p = new Problems();
  const { name, spec } = checkEnvelope(p, body, {
    kind: 'Region',
    apiVersions: [API_VERSIONS.core],
    environment,
    maxNameLength: MAX_REGION_NAME_LENGTH,
  });
  optionalString(p, spec, 'displayName', 'spec.displayName');
  optionalString(p, spec, 'description', 'spec.description');
  const types = spec.types;
  if (!Array.isArray(types) || types.length === 0) {
    p.add('spec.types', 'Required value: at least one Region Type');
  } else {
    const seen = new Set<string>();
    types.forEach((type, i) => {
      const f = `spec.types[${i}]`;
      if (!isRecord(type)) {
        p.add(f, 'Invalid value: must be an object');
        return;
      }
      const typeName = requiredString(p, type, 'name', `${f}.name`);
      if (typeName !== undefined && seen.has(typeName)) p.add(`${f}.name`, `Duplicate value: "${typeName}"`);
      if (typeName !== undefined) seen.add(typeName);
      optionalStringArray(p, type, 'locations', `${f}.locations`);
      const template = optionalObject(p, type, 'template', `${f}.template`);
      // An empty scheduling is the Go zero value: the default, not an error.
      if (template?.scheduling !== undefined && template.scheduling !== '') {
        checkEnum(p, `${f}.template.scheduling`, template.scheduling, SCHEDULING_STRATEGIES);
      }
    });
  }
  p.throwIfAny('Region', name);

  const region = deepClone(body) as Region;
  delete region.status;
  for (const type of region.spec.types) {
    type.locations ??= [];
    if (!asStored) type.template = { ...type.template, scheduling: type.template?.scheduling || 'Packed' };
  }
  return region;
}

function findRegion(env: EnvironmentState, name: string): Region {
  const region = env.regions.get(name);
  if (!region) throw notFound('Region', name, `environment "${env.name}"`);
  return region;
}

/** Stores a validated Region, keeping the uid and bumping the revision. */
export function storeRegion(svc: SimServices, env: EnvironmentState, region: Region, uid?: string): void {
  region.metadata.uid = uid ?? svc.store.newUid();
  region.metadata.revision = svc.store.nextRevision();
  env.regions.set(region.metadata.name, region);
}

/** GET .../environments/{env}/regions */
export const listRegions: Handler = (ctx, { env = '' }, svc) => {
  const items = sortedByName(svc.store.environment(env).regions.values());
  ctx.json(200, { apiVersion: API_VERSIONS.core, kind: 'RegionList', items: deepClone(items) });
};

/** GET .../environments/{env}/regions/{name} */
export const getRegion: Handler = (ctx, { env = '', name = '' }, svc) => {
  ctx.json(200, findRegion(svc.store.environment(env), name));
};

/** POST .../environments/{env}/regions */
export const createRegion: Handler = async (ctx, { env = '' }, svc) => {
  const environment = svc.store.environment(env);
  const region = validateRegion(
    requireObjectBody(await readObjectBody(ctx.req)),
    env,
    svc.settings.realShapes,
  );
  if (environment.regions.has(region.metadata.name)) throw alreadyExists('Region', region.metadata.name);
  storeRegion(svc, environment, region);
  svc.sync();
  ctx.json(201, region);
};

/** PATCH .../environments/{env}/regions/{name}: e.g. change a Region Type's scheduling. */
export const patchRegion: Handler = async (ctx, { env = '', name = '' }, svc) => {
  const environment = svc.store.environment(env);
  const current = findRegion(environment, name);
  const patched = await patchedCopy(ctx.req, 'Region', current as JsonObject);
  const p = new Problems();
  checkImmutableMetadata(p, current as JsonObject, patched);
  p.throwIfAny('Region', name);
  const region = validateRegion(patched, env, svc.settings.realShapes);
  storeRegion(svc, environment, region, current.metadata.uid);
  svc.sync();
  ctx.json(200, region);
};
