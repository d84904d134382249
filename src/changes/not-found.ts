/**
 * "Not found" answers that lead somewhere: they name what exists (or the
 * closest names, compared case-insensitively) instead of stopping at "No
 * formation lobbby". A 404 on an environment-scoped list means the
 * environment itself is missing; the Slack layer adds the environments and
 * branches it knows of, which the API cannot list.
 */

import { UserError } from '../errors/user-error.js';
import { isNotFound } from '../gamefabric/errors.js';
import { closestWords } from './closest-names.js';

/** What was missing. */
type MissingKind =
  | 'environment'
  | 'branch'
  | 'formation'
  | 'region'
  | 'vessel'
  | 'region type'
  | 'armada'
  | 'ArmadaSet';

/** A UserError saying what was missing, with enough structure for callers to add what exists. */
export class NotFoundError extends UserError {
  constructor(
    readonly missing: MissingKind,
    readonly missingName: string,
    message: string,
  ) {
    super(message, 'not_found');
  }
}

// Long lists are cut: the closest names matter more than the whole inventory.
const LIST_MAX = 10;

/** "Did you mean `lobby`? Formations in `dev`: `lobby`, `arena`." for `name` among `existing`. */
export function whatExists(name: string, existing: readonly string[], listTitle: string): string {
  const exact = existing.find((e) => e.toLowerCase() === name.toLowerCase());
  const close = exact ? [exact] : closestWords(name, existing);
  const guess = close.length ? ` Did you mean ${quote(close[0] as string)}?` : '';
  if (existing.length === 0) return `${guess} There are no ${listTitle}.`;
  const shown = existing.slice(0, LIST_MAX).map(quote).join(', ');
  const more = existing.length > LIST_MAX ? ` and ${existing.length - LIST_MAX} more` : '';
  return `${guess} ${capitalize(listTitle)}: ${shown}${more}.`;
}

/** "No environment `Dve`." (the Slack layer adds the environments it knows). */
export function missingEnvironment(environment: string): NotFoundError {
  return new NotFoundError('environment', environment, `No environment ${quote(environment)}.`);
}

/** "No branch `stagng`." (the Slack layer adds the branches it knows). */
export function missingBranch(branch: string): NotFoundError {
  return new NotFoundError('branch', branch, `No branch ${quote(branch)}.`);
}

/**
 * The NotFoundError for `kind` `name` in `environment`, listing what exists
 * there (read with `list`); when the list itself is a 404 the environment is
 * what is missing.
 */
export async function missingIn(
  kind: 'formation' | 'region' | 'vessel' | 'armada' | 'ArmadaSet',
  name: string,
  environment: string,
  list: () => Promise<string[]>,
): Promise<NotFoundError> {
  let existing: string[];
  try {
    existing = await list();
  } catch (err) {
    if (isNotFound(err)) return missingEnvironment(environment);
    // The answer is still "not found"; only the list of what exists is lost.
    return new NotFoundError(kind, name, `No ${kind} ${quote(name)} in environment ${quote(environment)}.`);
  }
  const hint = whatExists(name, existing, `${kind}s in ${environment}`);
  return new NotFoundError(
    kind,
    name,
    `No ${kind} ${quote(name)} in environment ${quote(environment)}.${hint}`,
  );
}

// API names are DNS labels (at most 63 characters): anything longer was pasted by mistake and is cut,
// so the answer's useful part (what exists) is never cut off behind it.
const QUOTE_MAX = 64;

/** Inline code for a name from a user or the API, cut short (backticks inside would end it). */
export function quote(name: string): string {
  const clean = name.replace(/`/g, "'");
  return `\`${clean.length > QUOTE_MAX ? `${clean.slice(0, QUOTE_MAX - 1)}…` : clean}\``;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
