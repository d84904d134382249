/**
 * Where a change acts, as a freeze judges it (issue 41): "every change
 * there" means every change that writes to a frozen environment.
 *
 * - An operation on an environment (vessels, formations, regions, fleets):
 *   its target's environment.
 * - An operation whose writes reach further says so in its module's
 *   `freezeScope`: a promotion names branches, not environments, and changes
 *   each environment its ImageUpdaters roll the image out to (and any whose
 *   ImageUpdaters could not be read); a rollback writes where its inverses
 *   do, each place carrying when the change it undoes was applied, since a
 *   rollback of a change applied before a freeze began is let through.
 * - An operation on a Site (terminating a game server) names no environment
 *   and no freeze covers it: a Site belongs to no environment in the API, and
 *   terminating a stuck server is the incident action. docs/guarantees.md says so.
 */
import type { FreezeScope } from '../freezes/types.js';
import type { ChangeOperation, Target } from '../policy/operations.js';
import type { Preview } from './operation.js';
import { operationModule } from './operations/index.js';

/** The freeze scope of a change: its module's own, or its target's environment. */
export function freezeScope(
  operation: ChangeOperation,
  request: unknown,
  target: Target,
  preview: Preview,
): FreezeScope {
  const module = operationModule(operation);
  if (module.freezeScope) return module.freezeScope(request, preview);
  return { places: target.environment ? [{ env: target.environment }] : [] };
}
