/**
 * Reading ArmadaGameServerStates (armada group): game servers per Armada by
 * state. The docs' example lists `GET /api/armada/v1/armadagameserverstates`
 * (GameFabric/docs `multiplayer-servers/authentication/service-accounts.md`);
 * the per-environment path is the armada group's convention (inferred). The
 * per-environment list is asked first; when the API does not serve it (404),
 * the documented list, keeping the items of `env` (an item naming no
 * environment is kept). The shape is inferred and read liberally
 * (api-shapes/armada-server-states.ts).
 */
import {
  type ArmadaServerStates,
  readServerStatesList,
  ServerStatesListSchema,
} from '../api-shapes/armada-server-states.js';
import { isNotFound } from './errors.js';
import { apiPath, type Requester } from './request.js';

async function listAt(http: Requester, path: string): Promise<ArmadaServerStates[]> {
  const body = await http.json(
    { method: 'GET', path, retry: 'idempotent' },
    ServerStatesListSchema,
    'ArmadaGameServerState list',
  );
  return readServerStatesList(body);
}

/** Every Armada's game servers by state in `env`; ApiError (403, 404) when the API will not say. */
export async function listArmadaServerStates(http: Requester, env: string): Promise<ArmadaServerStates[]> {
  try {
    return await listAt(http, apiPath`/api/armada/v1/environments/${env}/armadagameserverstates`);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const all = await listAt(http, apiPath`/api/armada/v1/armadagameserverstates`);
  return all.filter((s) => s.environment === undefined || s.environment === env);
}
