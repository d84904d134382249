/**
 * Formations (formation group, environment-scoped): seed endpoints 7 and 8,
 * list and create, and the guarded helpers that add or remove one Vessel.
 */
import { z } from 'zod';
import {
  API_VERSIONS,
  type Formation,
  FormationSchema,
  type FormationVessel,
  FormationVesselSchema,
  type JsonPatchOperation,
  listOf,
} from '../api-shapes/resources.js';
import { DuplicateVesselError, VesselNotInFormationError } from './errors.js';
import { patchWithGuard } from './guarded-patch.js';
import { apiPath, type Requester } from './request.js';

/** A Formation to create: kind and apiVersion may be left out (the client fills them). */
export type FormationCreate = z.input<typeof FormationSchema>;

interface GuardedOptions {
  /** Read-patch rounds before giving up with ConcurrentModificationError (default 5). */
  maxAttempts?: number;
}

const FormationListSchema = listOf(FormationSchema);

/**
 * The Formation as the service stored it: `spec.vessels` stays undefined when
 * absent, because a JSON Patch can neither test nor append to a missing list.
 */
const StoredFormationSchema = FormationSchema.extend({
  spec: FormationSchema.shape.spec.extend({ vessels: z.array(FormationVesselSchema).optional() }),
});

const formationPath = (env: string, name: string) =>
  apiPath`/api/formation/v1/environments/${env}/formations/${name}`;

/** Every Formation in the environment. */
export async function listFormations(http: Requester, env: string): Promise<Formation[]> {
  const list = await http.json(
    { method: 'GET', path: apiPath`/api/formation/v1/environments/${env}/formations`, retry: 'idempotent' },
    FormationListSchema,
    'Formation list',
  );
  return list.items;
}

/** One Formation by name, including `spec.vessels` (empty when the service omits it). */
export async function getFormation(http: Requester, env: string, name: string): Promise<Formation> {
  return http.json(
    { method: 'GET', path: formationPath(env, name), retry: 'idempotent' },
    FormationSchema,
    'Formation',
  );
}

/** Creates a Formation (`formation/v1`). Not retried except on 429. */
export async function createFormation(
  http: Requester,
  env: string,
  formation: FormationCreate,
): Promise<Formation> {
  const body = {
    ...formation,
    apiVersion: formation.apiVersion || API_VERSIONS.formation,
    kind: 'Formation',
    metadata: { ...formation.metadata, environment: formation.metadata.environment || env },
  };
  return http.json(
    {
      method: 'POST',
      path: apiPath`/api/formation/v1/environments/${env}/formations`,
      body: { json: body },
      retry: 'refused-only',
    },
    FormationSchema,
    'Formation',
  );
}

/**
 * Applies JSON Patch operations (sent as `application/json-patch+json`).
 * Not retried except on 429: a repeated `add .../-` would append twice.
 */
export async function patchFormation(
  http: Requester,
  env: string,
  name: string,
  ops: readonly JsonPatchOperation[],
): Promise<Formation> {
  return http.json(
    { method: 'PATCH', path: formationPath(env, name), body: { patch: ops }, retry: 'refused-only' },
    FormationSchema,
    'Formation',
  );
}

/**
 * Appends a Vessel (with its overrides, if any) to `spec.vessels`, guarded by a
 * test of the whole list as read, so a concurrent change is never overwritten.
 * DuplicateVesselError when the name is already listed.
 */
export async function appendVesselToFormation(
  http: Requester,
  env: string,
  formation: string,
  vessel: FormationVessel,
  opts: GuardedOptions = {},
): Promise<{ formation: Formation; index: number; attempts: number }> {
  const { result, attempts } = await patchWithGuard({
    kind: 'formation',
    name: formation,
    maxAttempts: opts.maxAttempts,
    prepare: async () => {
      const current = await readStored(http, env, formation);
      const vessels = current.spec.vessels;
      if (vessels?.some((v) => v.name === vessel.name)) {
        throw new DuplicateVesselError(formation, vessel.name, env);
      }
      // A missing list can not be tested; creating it is the only way in, unguarded but rare (an empty Formation).
      const ops: JsonPatchOperation[] = vessels
        ? [
            { op: 'test', path: '/spec/vessels', value: vessels },
            { op: 'add', path: '/spec/vessels/-', value: vessel },
          ]
        : [{ op: 'add', path: '/spec/vessels', value: [vessel] }];
      return {
        guard: JSON.stringify(vessels ?? null),
        apply: async () => ({
          formation: await patchFormation(http, env, formation, ops),
          index: vessels?.length ?? 0,
        }),
      };
    },
  });
  return { ...result, attempts };
}

/**
 * Removes the Vessel named `vesselName` from `spec.vessels`: finds its index
 * on a fresh read and sends `test /spec/vessels/i/name == name` with the
 * `remove`, so a list that moved underneath can never lose the wrong Vessel.
 * VesselNotInFormationError when the name is not listed.
 */
export async function removeVesselFromFormation(
  http: Requester,
  env: string,
  formation: string,
  vesselName: string,
  opts: GuardedOptions = {},
): Promise<{ formation: Formation; removedIndex: number; removed: FormationVessel; attempts: number }> {
  const { result, attempts } = await patchWithGuard({
    kind: 'formation',
    name: formation,
    maxAttempts: opts.maxAttempts,
    prepare: async () => {
      const current = await readStored(http, env, formation);
      const index = (current.spec.vessels ?? []).findIndex((v) => v.name === vesselName);
      const removed = current.spec.vessels?.[index];
      if (!removed) throw new VesselNotInFormationError(formation, vesselName, env);
      const ops: JsonPatchOperation[] = [
        { op: 'test', path: `/spec/vessels/${index}/name`, value: vesselName },
        { op: 'remove', path: `/spec/vessels/${index}` },
      ];
      return {
        guard: String(index),
        apply: async () => ({
          formation: await patchFormation(http, env, formation, ops),
          removedIndex: index,
          // The entry as read under the guard: what a rollback adds back (region, overrides).
          removed,
        }),
      };
    },
  });
  return { ...result, attempts };
}

function readStored(http: Requester, env: string, name: string) {
  return http.json(
    { method: 'GET', path: formationPath(env, name), retry: 'idempotent' },
    StoredFormationSchema,
    'Formation',
  );
}
