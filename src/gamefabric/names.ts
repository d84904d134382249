/**
 * Object-name rules from the GameFabric reference: DNS-1123 subdomain names,
 * at most 63 characters (Regions at most 24). Shared by the client, the change
 * engine and the simulator so all three reject the same names the same way.
 */

const DNS1123 = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/;

export const MAX_NAME_LENGTH = 63;
export const MAX_REGION_NAME_LENGTH = 24;

/** Why `name` is not a valid object name, or undefined when it is. */
export function nameProblem(name: string, maxLength = MAX_NAME_LENGTH): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (name.length > maxLength) return `must be at most ${maxLength} characters (got ${name.length})`;
  if (/[A-Z]/.test(name)) return 'must be lowercase';
  if (!/^[a-z0-9]/.test(name)) return 'must start with a lowercase letter or digit';
  if (!/[a-z0-9]$/.test(name)) return 'must end with a lowercase letter or digit';
  if (!DNS1123.test(name)) return "may contain only lowercase letters, digits, '-' and '.'";
  return undefined;
}
