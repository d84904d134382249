/**
 * Which Slack workspaces may act. A change is requested in one workspace, but
 * its buttons can be clicked from others: Slack Connect shares channels
 * across organisations and an org-wide install spans every workspace of an
 * Enterprise Grid. Without a `workspaces:` list only people in the change's
 * own workspace may confirm, cancel, approve or reject it; with one, anyone in
 * a listed workspace may (and only they may request).
 */

/** Why a user of `team` may not act; undefined when they may. `changeWorkspace` is absent for requests. */
export function workspaceRefusal(
  allowed: readonly string[] | undefined,
  team: string,
  changeWorkspace: string | undefined,
): string | undefined {
  if (allowed) {
    if (allowed.includes(team)) return undefined;
    // Never the policy's file path: that is the server's business, not the person's in Slack.
    return `Your Slack workspace (${team}) is not one the policy allows: it lists ${allowed.length === 1 ? 'one workspace' : `${allowed.length} workspaces`} under \`workspaces\`.`;
  }
  // With no list, requests may come from any workspace; the change then belongs to that one.
  if (changeWorkspace === undefined || team === changeWorkspace) return undefined;
  return 'This change was requested in another Slack workspace, and only people in that workspace may act on it (an admin can list the workspaces that may, under `workspaces` in the policy).';
}
