/**
 * `fieldSelector` and `labelSelector` query parameters: comma-separated
 * `key=value` (also `==` and `!=`) requirements, all of which must hold.
 */
import { badRequest } from './http-utils/status.js';

export interface Requirement {
  key: string;
  negate: boolean;
  value: string;
}

/** Parses a selector; 400 on a malformed pair. */
export function parseSelector(text: string | undefined, parameter: string): Requirement[] {
  if (text === undefined || text.trim() === '') return [];
  return text.split(',').map((raw) => {
    const pair = raw.trim();
    const match = /^([^=!]+?)\s*(!=|==|=)\s*(.*)$/.exec(pair);
    if (!match?.[1]) {
      throw badRequest(`invalid ${parameter} "${text}": expected key=value pairs separated by commas`);
    }
    return { key: match[1].trim(), negate: match[2] === '!=', value: (match[3] ?? '').trim() };
  });
}

/** Parses a fieldSelector and checks every field is supported; 400 naming an unsupported one. */
export function parseFieldSelector(text: string | undefined, supported: readonly string[]): Requirement[] {
  const requirements = parseSelector(text, 'fieldSelector');
  for (const r of requirements) {
    if (!supported.includes(r.key)) {
      throw badRequest(`field label not supported: "${r.key}" (supported: ${supported.join(', ')})`);
    }
  }
  return requirements;
}

/** True when every requirement holds for `get(key)`. */
export function matches(
  requirements: readonly Requirement[],
  get: (key: string) => string | undefined,
): boolean {
  return requirements.every((r) => (get(r.key) === r.value) !== r.negate);
}
