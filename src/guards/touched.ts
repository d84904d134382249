/**
 * What a guarded change touches (issue 42): the fleets, Formations and
 * Vessels it rolls out to, with the build it rolled out, read from what its
 * apply recorded for its rollback (its undo, whose shape is its operation's:
 * an image change's `ImageSet`, a promotion's `Promotion`). A promotion's
 * are the targets its ImageUpdaters roll out (recorded at apply from
 * changes/operations/image.promote/rollouts.ts), so the guard follows the
 * fleets a promotion reaches without a rollout of its own.
 */
import type { Promotion } from '../changes/operations/image.promote/undo.js';
import type { ImageSet } from '../changes/operations/set-fleet-image-restore.js';
import type { Undo } from '../changes/rollback/undo.js';

/** One object a guarded change rolled a build out to. */
export interface Touched {
  kind: 'Armada' | 'ArmadaSet' | 'Formation' | 'Vessel';
  environment: string;
  name: string;
  /** The internal image name it rolled out (which servers run the new build). */
  image: string;
}

/** A promotion's undo: the ImageUpdater targets it rolled out to. */
const isPromotion = (u: object): u is Promotion => Array.isArray((u as Partial<Promotion>).targets);

/** A fleet image change's undo: the one fleet container it set. */
const isImageSet = (u: object): u is ImageSet => {
  const x = u as Partial<ImageSet>;
  return (
    (x.fleet === 'Armada' || x.fleet === 'ArmadaSet') &&
    typeof x.name === 'string' &&
    typeof x.after === 'string'
  );
};

/** What `undo` says the change rolled out, one entry per object (several containers of one are one). */
export function touchedBy(undo: Undo | undefined): Touched[] {
  if (!undo) return [];
  const all: Touched[] = isPromotion(undo)
    ? undo.targets.map((t) => ({ kind: t.fleet, environment: t.environment, name: t.name, image: t.after }))
    : isImageSet(undo)
      ? [{ kind: undo.fleet, environment: undo.environment, name: undo.name, image: undo.after }]
      : [];
  const seen = new Set<string>();
  return all.filter((t) => {
    const key = `${t.environment}|${t.kind}|${t.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
