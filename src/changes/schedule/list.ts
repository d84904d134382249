/**
 * `/harbor scheduled [env]` and the Home tab's list (issue 41): the
 * scheduled changes not started yet in the asker's workspace, soonest first,
 * judged as the read `changes.scheduled` (the policy's words for it).
 */
import type { Policy } from '../../policy/types.js';
import { type Asker, authorizeRequest } from '../authorize.js';
import type { Change } from '../change.js';

/** Scheduled changes waiting (for a click or for their time) that `asker` may list, in `environment` when given. */
export async function scheduledFor(
  pending: () => Promise<Change[]>,
  policy: Policy,
  asker: Asker,
  environment?: string,
): Promise<Change[]> {
  await authorizeRequest(policy, asker, 'changes.scheduled', environment ? { environment } : {});
  const all = await pending();
  return all.filter(
    (c) =>
      c.origin.workspace === asker.team &&
      (environment === undefined || c.target.environment === environment),
  );
}
