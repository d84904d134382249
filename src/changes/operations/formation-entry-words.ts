/** How a rollback names a Formation's vessel entry and compares two (formation.add and formation.remove restore each other's). */
import { isDeepStrictEqual } from 'node:util';

export const vesselEntry = (v: { region: string; override?: unknown }) =>
  v.override ? `region ${v.region}, with its overrides` : `region ${v.region}`;

export function sameEntry(
  a: { region: string; override?: unknown },
  b: { region: string; override?: unknown },
): boolean {
  return a.region === b.region && isDeepStrictEqual(a.override ?? null, b.override ?? null);
}
