/**
 * The four modals behind one interface: the loading view opened at once from
 * the trigger, the loaded view (or what failed), reading a submission into an
 * engine request, and placing the engine's validation problems on blocks.
 */
import type { ModalView } from '@slack/types';
import { describeFailure } from '../../changes/describe-failure.js';
import { type FieldProblem, ValidationError } from '../../changes/errors.js';
import { operationModule } from '../../changes/operations/index.js';
import type { Logger } from '../../runtime/logger.js';
import type { ModalMetadata } from '../ids.js';
import { mapProblems } from './field-errors.js';
import { formationAddModal } from './formation-add.js';
import { promoteModal } from './promote.js';
import { regionCreateModal } from './region-create.js';
import type { ModalDefinition, ModalDeps, SubmissionResult, ViewStateValues } from './types.js';
import { vesselCreateModal } from './vessel-create.js';
import { errorView, modalView } from './view.js';

export { FORMATION_BLOCKS, KEEP_TEMPLATE, overrideBlock } from './formation-add.js';
export { readMetadata, writeMetadata } from './metadata.js';
export { PROMOTE_BLOCKS } from './promote.js';
export { REGION_BLOCKS, REGION_TYPE_ROWS, typeBlock } from './region-create.js';
export { TYPED_SUFFIX } from './state.js';
export type { FieldProblem, ModalDeps, SubmissionResult, ViewStateValue, ViewStateValues } from './types.js';
export { VESSEL_BLOCKS } from './vessel-create.js';
export { MODAL_TITLES, openingView } from './view.js';

const DEFINITIONS: Record<ModalMetadata['kind'], ModalDefinition> = {
  promote: promoteModal,
  'vessel.create': vesselCreateModal,
  'formation.add': formationAddModal,
  'region.create': regionCreateModal,
};

/**
 * Reads the API and builds the full view; `values` (view.state.values) keeps what
 * the user already chose. On an API error returns a view saying what failed, with
 * a retry button and Close.
 */
export async function loadedView(
  meta: ModalMetadata,
  deps: ModalDeps,
  logger: Logger,
  values: ViewStateValues = {},
): Promise<ModalView> {
  const def = DEFINITIONS[meta.kind];
  try {
    const blocks = await def.build(meta, deps, values);
    return modalView(meta, blocks, { submit: def.submit, close: 'Cancel' });
  } catch (err) {
    return errorView(meta, describeFailure(err, logger, { modal: meta.kind }));
  }
}

/**
 * Turns a submission's state values into the engine request, or per-block errors
 * for values that are missing or malformed. The request is checked with the
 * operation's own parse, so what it accepts the engine accepts.
 */
export function readSubmission(meta: ModalMetadata, values: ViewStateValues): SubmissionResult {
  const def = DEFINITIONS[meta.kind];
  const read = def.read(meta, values);
  if (!read.ok) return read;
  try {
    operationModule(read.operation).parse(read.input);
  } catch (err) {
    if (err instanceof ValidationError) return { ok: false, errors: mapProblems(def, err.problems, values) };
    throw err;
  }
  return read;
}

/**
 * Maps the engine's ValidationError problems (`containers[0].cpu`, `overrides[1].image`,
 * `name`) to block ids of this modal; problems no block owns go to the modal's first
 * input, prefixed with their field. Pass the submitted `values` so list entries
 * (`overrides[k]`, `types[k]`) land on the row they came from.
 */
export function fieldErrors(
  meta: ModalMetadata,
  problems: FieldProblem[],
  values?: ViewStateValues,
): Record<string, string> {
  return mapProblems(DEFINITIONS[meta.kind], problems, values);
}
