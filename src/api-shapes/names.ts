/**
 * Object-name rules as the GameFabric Terraform provider checks them
 * (internal/validators/meta.go): DNS-1123 subdomain names, i.e. dot-separated
 * labels of lowercase letters, digits and '-', each starting and ending with a
 * letter or digit (so `a..b` and `a.-b` are invalid), at most 63 characters;
 * environment names at most 4 (meta.go; GameFabric/docs multiplayer-services/quotas.md);
 * Regions at most 24 (the provider's internal/resource/core/region.go; docs
 * architecture/regions-sites-and-locations.md). Shared by
 * the client, the change engine, the grammar and the simulator so all reject
 * the same names the same way.
 */

const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = new RegExp(`^${LABEL}(\\.${LABEL})*$`);

export const MAX_NAME_LENGTH = 63;
export const MAX_ENVIRONMENT_NAME_LENGTH = 4;
export const MAX_REGION_NAME_LENGTH = 24;

/**
 * The rule for a name, as forms state it before anyone types: the same
 * characters and length nameProblem holds a name to, in the same words, so
 * the form, the command's refusal and the API's say one thing.
 */
export function nameRule(maxLength = MAX_NAME_LENGTH): string {
  return `Lowercase letters, digits, '-' and '.'; at most ${maxLength} characters.`;
}

/** Why `name` is not a valid object name, or undefined when it is. */
export function nameProblem(name: string, maxLength = MAX_NAME_LENGTH): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (name.length > maxLength) return `must be at most ${maxLength} characters (got ${name.length})`;
  // Other characters first: that answer also covers capitals, so one fix mends every problem named.
  if (!/^[A-Za-z0-9.-]*$/.test(name)) return "may contain only lowercase letters, digits, '-' and '.'";
  if (/[A-Z]/.test(name)) return 'must be lowercase';
  if (!/^[a-z0-9]/.test(name)) return 'must start with a lowercase letter or digit';
  if (!/[a-z0-9]$/.test(name)) return 'must end with a lowercase letter or digit';
  if (!DNS1123_SUBDOMAIN.test(name)) {
    return "must have a lowercase letter or digit on both sides of each '.' (no '..', '.-' or '-.')";
  }
  return undefined;
}

/** Why `name` is not a valid environment name, or undefined when it is. */
export function environmentNameProblem(name: string): string | undefined {
  return nameProblem(name, MAX_ENVIRONMENT_NAME_LENGTH);
}
