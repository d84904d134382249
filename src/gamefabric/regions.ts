/**
 * Regions (core group, environment-scoped): seed endpoint 9, the
 * Kubernetes-style list/get/PATCH, and the guarded change of one Region
 * Type's scheduling strategy.
 */
import type { z } from 'zod';
import {
  API_VERSIONS,
  type JsonPatchOperation,
  listOf,
  type Region,
  RegionSchema,
  SCHEDULING_STRATEGIES,
  type SchedulingStrategy,
  schedulingOf,
} from '../api-shapes/resources.js';
import { GameFabricError, RegionTypeNotFoundError } from './errors.js';
import { patchWithGuard } from './guarded-patch.js';
import { apiPath, type Requester } from './request.js';

/** A Region to create: kind and apiVersion may be left out (the client fills them). */
export type RegionCreate = z.input<typeof RegionSchema>;

const RegionListSchema = listOf(RegionSchema);

const regionsPath = (env: string) => apiPath`/api/core/v1/environments/${env}/regions`;
const regionPath = (env: string, name: string) => apiPath`/api/core/v1/environments/${env}/regions/${name}`;

/** Every Region in the environment. */
export async function listRegions(http: Requester, env: string): Promise<Region[]> {
  const list = await http.json(
    { method: 'GET', path: regionsPath(env), retry: 'idempotent' },
    RegionListSchema,
    'Region list',
  );
  return list.items;
}

/** One Region by name. */
export async function getRegion(http: Requester, env: string, name: string): Promise<Region> {
  return http.json(
    { method: 'GET', path: regionPath(env, name), retry: 'idempotent' },
    RegionSchema,
    'Region',
  );
}

/** Creates a Region (`core/v1`). Not retried except on 429. */
export async function createRegion(http: Requester, env: string, region: RegionCreate): Promise<Region> {
  const body = {
    ...region,
    apiVersion: region.apiVersion || API_VERSIONS.core,
    kind: 'Region',
    metadata: { ...region.metadata, environment: region.metadata.environment || env },
  };
  return http.json(
    { method: 'POST', path: regionsPath(env), body: { json: body }, retry: 'refused-only' },
    RegionSchema,
    'Region',
  );
}

/** Applies JSON Patch operations to a Region. Not retried except on 429. */
export async function patchRegion(
  http: Requester,
  env: string,
  name: string,
  ops: readonly JsonPatchOperation[],
): Promise<Region> {
  return http.json(
    { method: 'PATCH', path: regionPath(env, name), body: { patch: ops }, retry: 'refused-only' },
    RegionSchema,
    'Region',
  );
}

/**
 * Sets `template.scheduling` of the Region Type `typeName`, guarded by a test
 * of that type's name at the index read. Returns the previous strategy
 * (Packed when it was unset). Running game servers keep their old scheduling
 * until restarted; that is the service's rule, not ours.
 */
export async function setRegionTypeScheduling(
  http: Requester,
  env: string,
  region: string,
  typeName: string,
  strategy: SchedulingStrategy,
  opts: { maxAttempts?: number } = {},
): Promise<{ region: Region; previous: string; attempts: number }> {
  if (!SCHEDULING_STRATEGIES.includes(strategy)) {
    throw new GameFabricError(
      `scheduling must be one of ${SCHEDULING_STRATEGIES.join(', ')} (got ${strategy})`,
    );
  }
  const { result, attempts } = await patchWithGuard({
    kind: 'region',
    name: region,
    maxAttempts: opts.maxAttempts,
    prepare: async () => {
      const current = await getRegion(http, env, region);
      const types = current.spec.types;
      const index = types.findIndex((t) => t.name === typeName);
      const type = types[index];
      if (!type) {
        throw new RegionTypeNotFoundError(
          region,
          typeName,
          types.map((t) => t.name),
        );
      }
      const ops: JsonPatchOperation[] = [
        { op: 'test', path: `/spec/types/${index}/name`, value: typeName },
        type.template
          ? { op: 'add', path: `/spec/types/${index}/template/scheduling`, value: strategy }
          : { op: 'add', path: `/spec/types/${index}/template`, value: { scheduling: strategy } },
      ];
      return {
        guard: `${index}:${type.template ? 'template' : 'none'}`,
        apply: async () => ({
          region: await patchRegion(http, env, region, ops),
          previous: schedulingOf(type),
        }),
      };
    },
  });
  return { ...result, attempts };
}
