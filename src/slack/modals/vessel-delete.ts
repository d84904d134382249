/**
 * The delete-vessel modal (a release thread's "Add a change…" select): which
 * standalone vessel of the environment to delete. Vessels a formation owns
 * are not offered (the engine would refuse them: the formation would only
 * recreate them; removing them is the formation's own form). The preview that
 * follows is destructive and asks for a confirmation of its own.
 */
import type { DeleteVesselInput } from '../../changes/requests/vessels.js';
import { escapeMrkdwn, truncate } from '../limits.js';
import { choiceBlocks, contextBlock } from './blocks.js';
import { needEnvironment } from './environment.js';
import { addError, errorBlock } from './field-errors.js';
import { readBlock, readChoice, TYPED_SUFFIX } from './state.js';
import type { ModalDefinition } from './types.js';
import { whereBlockFor } from './where.js';

/** Block ids of the delete-vessel modal (besides the where step's). */
export const VESSEL_DELETE_BLOCKS = { vessel: 'vessel' } as const;

const B = VESSEL_DELETE_BLOCKS;
const VESSEL_HINT = 'a vessel name (e.g. duel-1)';

export const vesselDeleteModal: ModalDefinition<DeleteVesselInput> = {
  submit: 'Preview',
  fallbackBlock: B.vessel,

  async build(meta, deps, values) {
    const env = needEnvironment(meta);
    // A mistyped environment (undefined) is the user's to fix in the field above, not a load failure.
    const vessels = await deps.queries.vesselsIn(env);
    const shownEnv = escapeMrkdwn(truncate(env, 200));
    return [
      contextBlock(
        vessels
          ? `Deletes a standalone vessel in *${shownEnv}*: its game servers stop. Vessels of a formation are removed with the formation's own form. You see a preview before anything changes.`
          : `:warning: There is no environment *${shownEnv}*. Check the name.`,
      ),
      ...choiceBlocks({
        blockId: B.vessel,
        label: 'Vessel',
        choices: (vessels ?? []).filter((v) => v.standalone).map((v) => ({ label: v.name, value: v.name })),
        noun: `standalone vessels in ${env}`,
        typeHint: VESSEL_HINT,
        initial: readChoice(values, B.vessel) ?? meta.vessel,
        typedInitial: readBlock(values, `${B.vessel}${TYPED_SUFFIX}`),
        resetKey: env,
      }),
    ];
  },

  read(meta, values) {
    const errors: Record<string, string> = {};
    if (!meta.environment) addError(errors, B.vessel, 'This form lost its environment; open it again.');
    const vessel = readChoice(values, B.vessel);
    if (!vessel) addError(errors, errorBlock(B.vessel, values), `Choose a vessel, or type ${VESSEL_HINT}.`);
    const input = { environment: meta.environment, vessel };
    if (!meta.environment || !vessel) return { ok: false, errors, partial: input };
    return { ok: true, input: { environment: meta.environment, vessel } };
  },

  blockFor(field, values) {
    if (field === 'vessel') return B.vessel;
    return whereBlockFor(field, values);
  },
};
