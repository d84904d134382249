/**
 * Sites (core group, cluster-scoped): the capacity clusters behind a
 * Location. The docs name the states (Connected, Pending, Terminating, Error)
 * and cordoning (`architecture/regions-sites-and-locations.md`); the field
 * names below are inferred, so they are read liberally and never required.
 */
import { z } from 'zod';
import { apiPath, type Requester } from './request.js';
import { listOf } from './resources.js';

export const SITE_STATES = ['Connected', 'Pending', 'Terminating', 'Error'] as const;

export const SiteSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: z.looseObject({ name: z.string() }),
  spec: z
    .looseObject({
      /** The Location the Site belongs to (inferred field name). */
      location: z.string().optional(),
      cordoned: z.boolean().optional(),
    })
    .optional(),
  status: z.looseObject({ state: z.string().optional(), reason: z.string().optional() }).optional(),
});
export type Site = z.infer<typeof SiteSchema>;

/** Every Site the service account may see (`GET /api/core/v1/sites`). */
export async function listSites(http: Requester): Promise<Site[]> {
  const list = await http.json(
    { method: 'GET', path: apiPath`/api/core/v1/sites`, retry: 'idempotent' },
    listOf(SiteSchema),
    'Site list',
  );
  return list.items;
}
