/**
 * How the bot names a permission to the user. A 403 names exactly what an
 * admin should grant, in the real platform's terms (see permission-schema.ts),
 * rather than the seed's "POST on IMAGEPROMOTIONS" wording.
 */
import type { RequiredPermission } from './permission-schema.js';

/** "verb `create` on `imagepromotions` (API group container) in branch prod". */
export function describePermission(p: RequiredPermission): string {
  const where = p.scope ? ` in ${p.scope.kind} ${p.scope.name}` : '';
  return `verb \`${p.verb}\` on \`${p.resource}\` (API group ${p.group})${where}`;
}
