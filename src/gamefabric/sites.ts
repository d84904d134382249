/** Reading Sites (core group, cluster-scoped); the shape is in armada-resources.ts. */
import { type Site, SiteSchema } from '../api-shapes/armada-resources.js';
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
