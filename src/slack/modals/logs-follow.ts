/**
 * The "Tail logs" modal (`/harbor logs <env>`, or a release thread's button): which Vessel (and optionally
 * which container) to follow. Its submission starts a live tail in the
 * thread rather than a change, so it reads into a TailRequest, checked with
 * the same name rules the change operations use.
 */

import { ValidationError } from '../../changes/errors.js';
import type { VesselPick } from '../../changes/form-pickers.js';
import { type TailRequestInput, tailRequestSchema } from '../../changes/requests/tails.js';
import { parseRequest } from '../../changes/requests/vocabulary.js';
import { escapeMrkdwn, truncate } from '../limits.js';
import { choiceBlocks, contextBlock, textInput } from './blocks.js';
import { needEnvironment } from './environment.js';
import { addError, errorBlock, mapProblems, missingChoice } from './field-errors.js';
import { readBlock, readChoice, TYPED_SUFFIX, textInitial } from './state.js';
import type { TailModalDefinition, TailRequest } from './types.js';
import { whereBlockFor } from './where.js';

/** Block ids of the tail modal (besides the where step's). */
export const LOGS_FOLLOW_BLOCKS = { vessel: 'vessel', container: 'container' } as const;

const B = LOGS_FOLLOW_BLOCKS;
const VESSEL_HINT = 'a vessel name (e.g. lobby-1)';

/** "lobby-1 (Running)": the state tells which vessels have logs worth following. */
function vesselLabel(v: VesselPick): string {
  return v.state ? `${v.name} (${v.state})` : v.name;
}

export const logsFollowModal: TailModalDefinition = {
  submit: 'Start tail',
  fallbackBlock: B.vessel,

  async build(meta, deps, values) {
    const env = needEnvironment(meta);
    // A mistyped environment (undefined) is the user's to fix in the field above, not a load failure.
    const vessels = await deps.queries.vesselsIn(env);
    const shownEnv = escapeMrkdwn(truncate(env, 200));
    return [
      contextBlock(
        vessels
          ? `Follows a vessel's logs in *${shownEnv}*: the latest lines appear in a message ${meta.threadTs ? 'in the thread' : 'in this channel'}, updated live, until someone presses Stop.`
          : `:warning: There is no environment *${shownEnv}*. Check the name.`,
      ),
      ...choiceBlocks({
        blockId: B.vessel,
        label: 'Vessel',
        choices: (vessels ?? []).map((v) => ({ label: vesselLabel(v), value: v.name })),
        noun: `vessels in ${env}`,
        typeHint: VESSEL_HINT,
        initial: readChoice(values, B.vessel) ?? meta.vessel,
        typedInitial: readBlock(values, `${B.vessel}${TYPED_SUFFIX}`),
        resetKey: env,
        suggest: { source: 'vessels', scope: env },
      }),
      textInput({
        blockId: B.container,
        label: 'Container',
        optional: true,
        initial: textInitial(values, B.container),
        placeholder: 'game-server',
        hint: "Leave empty for the vessel's first container.",
      }),
    ];
  },

  read(meta, values) {
    const errors: Record<string, string> = {};
    const vessel = readChoice(values, B.vessel);
    if (!meta.environment) addError(errors, B.vessel, 'This form lost its environment; open it again.');
    if (!vessel)
      addError(
        errors,
        errorBlock(B.vessel, values),
        missingChoice(values, B.vessel, 'a vessel', VESSEL_HINT),
      );
    try {
      // The name checks run even when a field is missing, so every problem comes back in one answer.
      const tail = parseTailRequest({
        environment: meta.environment ?? '',
        vessel: vessel ?? '',
        container: readBlock(values, B.container),
      });
      if (Object.keys(errors).length === 0) return { ok: true, tail };
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const found = mapProblems(logsFollowModal, err.problems, values);
      // A missing field is said in the form's own words, not as an invalid name.
      return { ok: false, errors: { ...found, ...errors } };
    }
    return { ok: false, errors };
  },

  blockFor(field, values) {
    if (field === 'vessel' || field === 'container') return B[field];
    return whereBlockFor(field, values);
  },
};

/** Checks names the way the change operations do; throws ValidationError naming each bad field. */
function parseTailRequest(raw: TailRequestInput): TailRequest {
  const { environment, vessel, container } = parseRequest(tailRequestSchema, raw);
  return { environment, vessel, ...(container ? { container } : {}) };
}
