/**
 * What a guarded change touches (issue 42): the fleets, Formations and
 * Vessels it rolls out to, with the build it rolled out, read from what its
 * apply recorded for its rollback (changes/rollback/undo.ts). A promotion's
 * are the targets its ImageUpdaters roll out (recorded at apply from
 * changes/operations/promotion-rollouts.ts), so the guard follows the
 * fleets a promotion reaches without a rollout of its own.
 */
import type { Undo } from '../changes/rollback/undo.js';

/** One object a guarded change rolled a build out to. */
export interface Touched {
  kind: 'Armada' | 'ArmadaSet' | 'Formation' | 'Vessel';
  environment: string;
  name: string;
  /** The internal image name it rolled out (which servers run the new build). */
  image: string;
}

/** What `undo` says the change rolled out, one entry per object (several containers of one are one). */
export function touchedBy(undo: Undo | undefined): Touched[] {
  if (!undo) return [];
  const all: Touched[] =
    undo.kind === 'fleet.image'
      ? [{ kind: undo.fleet, environment: undo.environment, name: undo.name, image: undo.after }]
      : undo.kind === 'image.promotion'
        ? undo.targets.map((t) => ({
            kind: t.fleet,
            environment: t.environment,
            name: t.name,
            image: t.after,
          }))
        : [];
  const seen = new Set<string>();
  return all.filter((t) => {
    const key = `${t.environment}|${t.kind}|${t.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
