import { z } from 'zod';
/** Reading Sites (core group, cluster-scoped); the shape is in armada-resources.ts. */
import { type Location, LocationSchema, type Site, SiteSchema } from '../api-shapes/armada-resources.js';
import { listOf } from '../api-shapes/resources.js';
import { apiPath, type Requester } from './request.js';

/** Every Site the service account may see (`GET /api/core/v1/sites`). */
export async function listSites(http: Requester): Promise<Site[]> {
  const list = await http.json(
    { method: 'GET', path: apiPath`/api/core/v1/sites`, retry: 'idempotent' },
    listOf(SiteSchema),
    'Site list',
  );
  return list.items;
}

/**
 * Every Location the service account may see (`GET /api/core/v1/locations`:
 * the path is inferred from the core group's convention; the provider reads
 * Locations through `CoreV1().Locations()`, nitrado/terraform-provider-ec
 * `ec/core/data_source_core_location.go`). Each lists its Sites in `spec.sites`.
 */
export async function listLocations(http: Requester): Promise<Location[]> {
  const list = await http.json(
    { method: 'GET', path: apiPath`/api/core/v1/locations`, retry: 'idempotent' },
    listOf(LocationSchema),
    'Location list',
  );
  return list.items;
}

/**
 * Terminates one game server (`DELETE /api/core/v1/sites/{site}/gameservers/{name}`,
 * docs `getting-started/terminating-game-servers.md`); an allocated match on
 * it ends. Retried only when the request was refused before it was read.
 */
export async function terminateGameServer(http: Requester, site: string, name: string): Promise<void> {
  await http.empty({
    method: 'DELETE',
    path: apiPath`/api/core/v1/sites/${site}/gameservers/${name}`,
    retry: 'refused-only',
  });
}

/**
 * The names of the game servers on `site` (`GET /api/core/v1/sites/{site}/gameservers`;
 * the path follows the Kubernetes convention, inferred), to check a termination took effect.
 */
export async function listGameServerNames(http: Requester, site: string): Promise<string[]> {
  const list = await http.json(
    { method: 'GET', path: apiPath`/api/core/v1/sites/${site}/gameservers`, retry: 'idempotent' },
    listOf(z.looseObject({ metadata: z.looseObject({ name: z.string() }) })),
    'GameServer list',
  );
  return list.items.map((g) => g.metadata.name);
}
