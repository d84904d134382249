/**
 * Branches (container group, cluster-scoped). Not in the seed; the Terraform
 * provider lists them through its typed client (ContainerV1().Branches()), so
 * the path follows the Kubernetes convention for a cluster-scoped resource.
 */

import { type Branch, BranchSchema, listOf } from '../api-shapes/resources.js';
import { apiPath, type Requester } from './request.js';

const BranchListSchema = listOf(BranchSchema);

/** Every Branch the service account may see. */
export async function listBranches(http: Requester): Promise<Branch[]> {
  const list = await http.json(
    { method: 'GET', path: apiPath`/api/container/v1/branches`, retry: 'idempotent' },
    BranchListSchema,
    'Branch list',
  );
  return list.items;
}
