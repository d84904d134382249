/**
 * Branches come from the API (Branch objects with a display name). What users
 * type is matched by name or display name, case-insensitively. HARBOR_BRANCHES,
 * when set, only restricts which of them the bot offers and accepts.
 */

import { UserError } from '../errors/user-error.js';
import type { GameFabricClient } from '../gamefabric/client.js';
import { ApiError } from '../gamefabric/errors.js';
import { closestWords } from './closest-names.js';
import { NotFoundError, quote } from './not-found.js';

export interface BranchInfo {
  name: string;
  displayName: string;
}

/**
 * The branches to offer: the API's list, narrowed by `restriction` when set.
 * When the API refuses the list (no permission, or no such endpoint), the
 * restriction names stand in; with neither, undefined (unknown).
 */
export async function listBranchInfo(
  client: GameFabricClient,
  restriction?: readonly string[],
): Promise<BranchInfo[] | undefined> {
  let fromApi: BranchInfo[];
  try {
    fromApi = (await client.listBranches()).map((b) => ({
      name: b.metadata.name,
      displayName: b.spec?.displayName || b.metadata.name,
    }));
  } catch (err) {
    if (!(err instanceof ApiError && (err.status === 403 || err.status === 404))) throw err;
    return restriction?.map((name) => ({ name, displayName: name }));
  }
  const sorted = fromApi.sort((a, b) => a.name.localeCompare(b.name));
  return restriction ? sorted.filter((b) => restriction.includes(b.name)) : sorted;
}

/** "prod (Production)" like region choices, or just "dev" when the display name is the name. */
export function branchLabel(b: BranchInfo): string {
  return b.displayName === b.name ? b.name : `${b.name} (${b.displayName})`;
}

const FIELD_WORDS: Record<string, string> = { sourceBranch: 'source branch', targetBranch: 'target branch' };

/**
 * The branch name for what a user typed in `field` (name or display name, any
 * case). UserError naming the branches that exist when nothing matches.
 */
export async function resolveBranch(
  client: GameFabricClient,
  typed: string,
  field: string,
  restriction?: readonly string[],
): Promise<string> {
  const branches = await listBranchInfo(client, restriction);
  if (branches === undefined) return typed; // nothing to check against: the API will say
  const exact = branches.find((b) => b.name === typed);
  if (exact) return exact.name;
  const lower = typed.toLowerCase();
  const matches = branches.filter(
    (b) => b.name.toLowerCase() === lower || b.displayName.toLowerCase() === lower,
  );
  if (matches.length === 1) return (matches[0] as BranchInfo).name;
  // Names in code, as every other list of what exists; display names beside them.
  const known =
    branches.length > 0
      ? branches
          .map((b) => (b.displayName === b.name ? quote(b.name) : `${quote(b.name)} (${b.displayName})`))
          .join(', ')
      : 'none';
  if (matches.length > 1) {
    throw new UserError(
      `${field}: "${typed}" matches several branches (${matches.map(branchLabel).join(', ')}); give the branch name.`,
      'validation',
    );
  }
  const restricted = restriction ? ' that Harbormaster may use (HARBOR_BRANCHES)' : '';
  // People's words, not request fields: "the target branch", never "targetBranch".
  const role = FIELD_WORDS[field] ? ` (the ${FIELD_WORDS[field]})` : '';
  const close = closestWords(
    typed,
    branches.map((b) => b.name),
  )[0];
  const guess = close ? ` Did you mean ${quote(close)}?` : '';
  throw new NotFoundError(
    'branch',
    typed,
    `No branch ${quote(typed)}${role}.${guess} Branches${restricted}: ${known}.`,
  );
}
