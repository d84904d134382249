/**
 * The remove-from-formation modal: which of the formation's vessels to
 * remove. Opened from a release thread it first asks for the environment and
 * formation (see where.ts); the preview that follows is destructive and asks
 * for a confirmation of its own.
 */
import type { RemoveFromFormationInput } from '../../changes/requests/formations.js';
import type { ModalMetadata } from '../ids.js';
import { escapeMrkdwn, truncate } from '../limits.js';
import { choiceBlocks, contextBlock } from './blocks.js';
import { needEnvironment, needFormation } from './environment.js';
import { addError, errorBlock, missingChoice } from './field-errors.js';
import { readBlock, readChoice, TYPED_SUFFIX } from './state.js';
import type { ModalDefinition, ViewStateValues } from './types.js';
import { whereBlockFor } from './where.js';

/** Block ids of the remove-from-formation modal (besides the where step's). */
export const FORMATION_REMOVE_BLOCKS = { vessel: 'vessel' } as const;

const B = FORMATION_REMOVE_BLOCKS;
const VESSEL_HINT = 'a vessel name (e.g. lobby-2)';

export const formationRemoveModal: ModalDefinition<RemoveFromFormationInput> = {
  submit: 'Preview',
  fallbackBlock: B.vessel,

  async build(meta, deps, values) {
    const env = needEnvironment(meta);
    const name = needFormation(meta);
    const formation = await deps.queries.formation(env, name);
    const where = `formation *${escapeMrkdwn(truncate(name, 200))}* in *${escapeMrkdwn(truncate(env, 200))}*`;
    return [
      contextBlock(
        `Removes a vessel from ${where}: the formation controller deletes it and its game servers stop. You see a preview before anything changes.`,
      ),
      ...choiceBlocks({
        blockId: B.vessel,
        label: 'Vessel',
        choices: formation.vessels.map((v) => ({ label: v, value: v })),
        noun: `vessels in ${name}`,
        typeHint: VESSEL_HINT,
        initial: readChoice(values, B.vessel),
        typedInitial: readBlock(values, `${B.vessel}${TYPED_SUFFIX}`),
        // Another formation's vessel must not stay selected when the formation changes.
        resetKey: `${env}/${name}`,
      }),
    ];
  },

  read(meta: ModalMetadata, values: ViewStateValues) {
    const errors: Record<string, string> = {};
    if (!meta.environment || !meta.formation) {
      addError(errors, B.vessel, 'This form lost its environment or formation; open it again.');
    }
    const vessel = readChoice(values, B.vessel);
    if (!vessel)
      addError(
        errors,
        errorBlock(B.vessel, values),
        missingChoice(values, B.vessel, 'a vessel', VESSEL_HINT),
      );
    const input = { environment: meta.environment, formation: meta.formation, vessel };
    if (!meta.environment || !meta.formation || !vessel) return { ok: false, errors, partial: input };
    return {
      ok: true,
      input: { environment: meta.environment, formation: meta.formation, vessel },
    };
  },

  blockFor(field, values) {
    if (field === 'vessel') return B.vessel;
    return whereBlockFor(field, values);
  },
};
