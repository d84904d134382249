/**
 * Branches as API objects: cluster-scoped in the container group, with
 * `metadata.name` and `spec.displayName` (the Terraform provider lists them
 * through its typed client; the path follows the Kubernetes convention).
 */
import { API_VERSIONS } from '../api-shapes/resources.js';
import { notFound } from './http-utils/status.js';
import type { Handler } from './services.js';
import type { SimStore } from './store.js';

function branchObject(store: SimStore, name: string) {
  return {
    apiVersion: API_VERSIONS.container,
    kind: 'Branch',
    metadata: { name },
    spec: { displayName: store.branchDisplayNames.get(name) ?? name },
  };
}

/** GET /api/container/v1/branches */
export const listBranches: Handler = (ctx, _params, svc) => {
  const names = [...svc.store.branches.keys()].sort();
  ctx.json(200, {
    apiVersion: API_VERSIONS.container,
    kind: 'BranchList',
    items: names.map((n) => branchObject(svc.store, n)),
  });
};

/** GET /api/container/v1/branches/{name} */
export const getBranch: Handler = (ctx, { name = '' }, svc) => {
  if (!svc.store.hasBranch(name)) throw notFound('branch', name);
  ctx.json(200, branchObject(svc.store, name));
};
