/**
 * ImageUpdaters (container group, environment-scoped) and Environments (core
 * group, cluster-scoped). Both are read only: the bot shows which ImageUpdater
 * will roll a target out, and lists environments for pickers.
 */
import {
  type Environment,
  EnvironmentSchema,
  type ImageUpdater,
  ImageUpdaterSchema,
} from '../api-shapes/armada-resources.js';
import { listOf } from '../api-shapes/resources.js';
import { apiPath, type Requester } from './request.js';

/** Every ImageUpdater in the environment. */
export async function listImageUpdaters(http: Requester, env: string): Promise<ImageUpdater[]> {
  const list = await http.json(
    {
      method: 'GET',
      path: apiPath`/api/container/v1/environments/${env}/imageupdaters`,
      retry: 'idempotent',
    },
    listOf(ImageUpdaterSchema),
    'ImageUpdater list',
  );
  return list.items;
}

/** Every Environment the service account may see. */
export async function listEnvironments(http: Requester): Promise<Environment[]> {
  const list = await http.json(
    { method: 'GET', path: apiPath`/api/core/v1/environments`, retry: 'idempotent' },
    listOf(EnvironmentSchema),
    'Environment list',
  );
  return list.items;
}
