/**
 * Vessels (formation group, environment-scoped): seed endpoints 3, 4 and 6,
 * plus the Kubernetes-style GET of one Vessel.
 */
import type { z } from 'zod';
import { apiPath, type Requester } from './request.js';
import { listOf, type Vessel, VesselSchema } from './resources.js';

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
