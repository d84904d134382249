/**
 * Vessels (formation group, environment-scoped): seed endpoints 3, 4 and 6,
 * plus the Kubernetes-style GET of one Vessel.
 */
import type { z } from 'zod';
import { FORMATION_API_VERSIONS, listOf, type Vessel, VesselSchema } from '../api-shapes/resources.js';
import { ApiError } from './errors.js';
import { apiPath, type Requester } from './request.js';

/** A Vessel to create: kind and apiVersion may be left out (the client fills them), status is the service's. */
export type VesselCreate = z.input<typeof VesselSchema>;

const VesselListSchema = listOf(VesselSchema);

/** Creates a Vessel; an unset apiVersion becomes `apiVersion` (the client's vesselApiVersion option). Not retried except on 429. */
export async function createVessel(
  http: Requester,
  env: string,
  vessel: VesselCreate,
  apiVersion: string,
): Promise<Vessel> {
  const body = {
    ...vessel,
    apiVersion: vessel.apiVersion || apiVersion,
    kind: 'Vessel',
    metadata: { ...vessel.metadata, environment: vessel.metadata.environment || env },
  };
  return http.json(
    {
      method: 'POST',
      path: apiPath`/api/formation/v1/environments/${env}/vessels`,
      body: { json: body },
      retry: 'refused-only',
    },
    VesselSchema,
    'Vessel',
  );
}

/** The Vessel apiVersion in use; the client keeps one and updates it when the API refuses it. */
export interface VesselApiVersion {
  current: string;
}

/**
 * Creates a Vessel with the remembered apiVersion. The docs say
 * `formation/v1beta1`, the provider's typed client `formation/v1`: when the API
 * refuses one with a 400 or 404 that names it, retry once with the other and
 * remember that one. Safe to repeat: a refused create created nothing.
 */
export async function createVesselWithFallback(
  http: Requester,
  env: string,
  vessel: VesselCreate,
  version: VesselApiVersion,
): Promise<Vessel> {
  const tried = vessel.apiVersion || version.current;
  try {
    return await createVessel(http, env, vessel, version.current);
  } catch (err) {
    const other = FORMATION_API_VERSIONS.find((v) => v !== tried);
    if (!other || vessel.apiVersion || !refusesVersion(err, tried)) throw err;
    const created = await createVessel(http, env, vessel, other);
    version.current = other;
    return created;
  }
}

function refusesVersion(err: unknown, apiVersion: string): boolean {
  return (
    err instanceof ApiError &&
    (err.status === 400 || err.status === 404) &&
    `${err.message} ${err.reason ?? ''}`.includes(apiVersion)
  );
}

/** Every Vessel in the environment (standalone and Formation-owned). */
export async function listVessels(http: Requester, env: string): Promise<Vessel[]> {
  const list = await http.json(
    { method: 'GET', path: apiPath`/api/formation/v1/environments/${env}/vessels`, retry: 'idempotent' },
    VesselListSchema,
    'Vessel list',
  );
  return list.items;
}

/** One Vessel by name; an ApiError with status 404 once it is gone. */
export async function getVessel(http: Requester, env: string, name: string): Promise<Vessel> {
  return http.json(
    {
      method: 'GET',
      path: apiPath`/api/formation/v1/environments/${env}/vessels/${name}`,
      retry: 'idempotent',
    },
    VesselSchema,
    'Vessel',
  );
}

/** Deletes a standalone Vessel (it moves to Terminating, then disappears). Not retried except on 429. */
export async function deleteVessel(http: Requester, env: string, name: string): Promise<void> {
  await http.empty({
    method: 'DELETE',
    path: apiPath`/api/formation/v1/environments/${env}/vessels/${name}`,
    retry: 'refused-only',
  });
}
