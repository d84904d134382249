/**
 * Resolves policy user groups through Slack (`usergroups.users.list`) at the
 * moment of each decision. Nothing is kept between decisions: a cache in one
 * process would let someone removed from a group act (and their earlier vote
 * count) until it expired, on every replica separately, and Slack tells only
 * one replica of a membership change. Lookups of the same group already in
 * flight are shared, so a burst of clicks at one moment costs one call; a
 * rate-limited call is held and sent again by the Slack gateway (slack/gateway).
 *
 * Under an org-wide install on Enterprise Grid the bot holds an org token,
 * and Slack then needs `team_id`: the workspace to look the group up in (that
 * of the person being checked). Whether the install is org-wide is asked of
 * `auth.test` once, at the first lookup; a workspace install sends no team_id.
 *
 * One exception to "nothing is kept": a batch of Home tab redraws (one
 * action redraws everyone's tab) reads each group once for the whole batch
 * (withMembershipBatch). A Home tab only shows; every click on it is judged
 * again, outside any batch, with a fresh read.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from '../../runtime/logger.js';
import type { SlackCalls } from './slack-calls.js';

/** Group members read during the current redraw batch, by workspace and group. */
const batch = new AsyncLocalStorage<Map<string, Promise<readonly string[]>>>();

/**
 * Runs `fn` as one batch of drawing (not deciding): each group's membership
 * is read from Slack at most once within it.
 */
export function withMembershipBatch<T>(fn: () => Promise<T>): Promise<T> {
  return batch.run(new Map(), fn);
}

/** A `resolveGroup` for the policy, backed by Slack, read for every decision. */
export function slackGroupResolver(
  client: SlackCalls,
  logger: Logger,
  /** Whether the token is an org-wide install's, when the start's token check said (else asked once). */
  enterpriseInstall?: boolean,
): (groupId: string, workspace?: string) => Promise<readonly string[]> {
  const inFlight = new Map<string, Promise<readonly string[]>>();
  const orgInstall =
    enterpriseInstall === undefined ? orgInstallCheck(client) : () => Promise.resolve(enterpriseInstall);
  return async (groupId, workspace) => {
    const key = `${workspace ?? ''}/${groupId}`;
    const read = batch.getStore();
    const known = read?.get(key);
    if (known) return known;
    const pending = inFlight.get(key);
    if (pending) {
      read?.set(key, pending);
      return pending;
    }
    const load = (async () => {
      try {
        const teamId = workspace && (await orgInstall()) ? workspace : undefined;
        const res = await client.usergroups.users.list({
          usergroup: groupId,
          ...(teamId ? { team_id: teamId } : {}),
        });
        return res.users ?? [];
      } catch (err) {
        // Deny rather than guess: the policy then refuses with the group named.
        logger.warn('could not resolve a Slack user group; treating it as empty', {
          groupId,
          workspace,
          error: err,
        });
        return [];
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, load);
    read?.set(key, load);
    return load;
  };
}

/** Whether the bot's token is an org-wide install's, asked of auth.test once (a failure is asked again). */
function orgInstallCheck(client: SlackCalls): () => Promise<boolean> {
  let known: Promise<boolean> | undefined;
  return () => {
    known ??= client.auth.test().then(
      (res) => res.is_enterprise_install === true,
      (error: unknown) => {
        known = undefined;
        throw error;
      },
    );
    return known;
  };
}
