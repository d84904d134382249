/**
 * What a rollback's preview says about the effect of its write, in the words
 * of the forward operation's preview for the same values on the target as it
 * is now (issue 38): a scale back to some values warns as a scale to them
 * would (`scaleWarnings`: the drain to max 0 is graceful, a dynamic buffer
 * overrides the buffer restored); an image set back names the fleet's own
 * strategy and the ImageUpdaters that may roll it forward again
 * (`rolloutWords`), as the image change does. Reads only; called once the
 * guard found the target as the change left it.
 */
import type { Armada, ArmadaSet } from '../../api-shapes/armada-resources.js';
import { readFleet } from '../fleet-read.js';
import type { Line, OperationContext } from '../operation.js';
import { rolloutWords, strategyWords } from '../operations/rollout-words.js';
import { SCALE_NOTES, scaleWarnings } from '../operations/scale-fleet.js';
import { fleetWhere, isFleetTarget, promotedWhere } from './inverse-words.js';
import type { Undo } from './undo.js';

/** Lines, warnings and notes the forward preview of the same write would show. */
export interface InverseEffects {
  lines: Line[];
  warnings: string[];
  notes: string[];
}

export const NO_EFFECTS: InverseEffects = { lines: [], warnings: [], notes: [] };

export async function inverseEffects(ctx: OperationContext, u: Undo): Promise<InverseEffects> {
  switch (u.kind) {
    case 'fleet.scale': {
      const fleet = await readFleet(ctx.client, u.fleet, u.environment, u.name);
      const entries =
        u.fleet === 'ArmadaSet'
          ? (fleet as ArmadaSet).spec.armadas.find((a) => a.region === u.region)?.distribution
          : (fleet as Armada).spec.distribution;
      const entry = entries?.find((e) => e.name === u.type);
      if (!entry) return NO_EFFECTS;
      return {
        lines: [],
        warnings: scaleWarnings({
          kind: u.fleet,
          fleet,
          entry,
          type: u.type,
          where: fleetWhere(u),
          next: u.before,
          bufferSet: u.before.bufferSize !== u.after.bufferSize,
        }),
        notes: [...SCALE_NOTES],
      };
    }
    case 'fleet.image': {
      const fleet = await readFleet(ctx.client, u.fleet, u.environment, u.name);
      return rolloutWords(ctx.client, u.fleet, u.environment, fleet, fleetWhere(u));
    }
    case 'image.promotion': {
      // The ImageUpdaters are named by the inverse itself; each fleet's strategy is read here.
      const out: InverseEffects = { lines: [], warnings: [], notes: [] };
      for (const t of u.targets) {
        if (!isFleetTarget(t)) continue;
        const fleet = await readFleet(ctx.client, t.fleet, t.environment, t.name);
        const words = strategyWords(fleet, promotedWhere(t));
        out.lines.push(...words.lines.map((l) => ({ ...l, label: `${l.label} of ${promotedWhere(t)}` })));
        out.warnings.push(...words.warnings);
        out.notes.push(...words.notes.filter((n) => !out.notes.includes(n)));
      }
      return out;
    }
    default:
      return NO_EFFECTS;
  }
}
