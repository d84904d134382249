/**
 * The modals behind one interface: the loading view opened at once from the
 * trigger, the loaded view (or what failed), reading a submission into an
 * engine request (or, for the tail modal, the tail to start), and placing
 * validation problems on blocks. A modal opened without the place it needs
 * (from a release thread's buttons) asks for it first: see where.ts.
 */

import type { KnownBlock, ModalView } from '@slack/types';
import { describeFailure } from '../../changes/describe-failure.js';
import { type FieldProblem, ValidationError } from '../../changes/errors.js';
import { operationModule } from '../../changes/operations/index.js';
import type { OperationInput } from '../../changes/requests/index.js';
import {
  type ChangeFormKind,
  type ChangeOperation,
  FORMS,
  isGuardable,
  isReadOperation,
  type OperationOfForm,
  operationOfForm,
} from '../../operations/index.js';
import type { Logger } from '../../runtime/logger.js';
import type { ModalKind } from '../grammar/command.js';
import type { ModalMetadata, RELEASE_ACTIONS } from '../ids.js';
import { controlBlocks, readControl } from './control-fields.js';
import { mapProblems } from './field-errors.js';
import { fleetImageModal } from './fleet-image.js';
import { fleetScaleModal } from './fleet-scale.js';
import { formationAddModal } from './formation-add.js';
import { formationRemoveModal } from './formation-remove.js';
import { gameServerTerminateModal } from './gameserver-terminate.js';
import { logsFollowModal } from './logs-follow.js';
import { fieldProblemBlock, problemBlock } from './problem-block.js';
import { promoteModal } from './promote.js';
import { regionCreateModal } from './region-create.js';
import { regionSchedulingModal } from './region-scheduling.js';
import type {
  ModalDefinition,
  ModalDeps,
  ModalShell,
  SubmissionResult,
  TailSubmission,
  ViewStateValues,
} from './types.js';
import { vesselCreateModal } from './vessel-create.js';
import { vesselDeleteModal } from './vessel-delete.js';
import { errorView, modalView } from './view.js';
import { asksWhere, askWhere, placeOf, type WhereNeed } from './where.js';

export { FLEET_IMAGE_BLOCKS } from './fleet-image.js';
export { FLEET_SCALE_BLOCKS } from './fleet-scale.js';
export { FORMATION_BLOCKS, KEEP_TEMPLATE, overrideBlock } from './formation-add.js';
export { FORMATION_REMOVE_BLOCKS } from './formation-remove.js';
export { GAMESERVER_TERMINATE_BLOCKS } from './gameserver-terminate.js';
export { LOGS_FOLLOW_BLOCKS } from './logs-follow.js';
export { readMetadata, writeMetadata } from './metadata.js';
export { PROMOTE_BLOCKS } from './promote.js';
export { REGION_BLOCKS, REGION_TYPE_ROWS, typeBlock } from './region-create.js';
export { REGION_SCHEDULING_BLOCKS } from './region-scheduling.js';
export { TYPED_SUFFIX } from './state.js';
export type {
  FieldProblem,
  ModalDeps,
  SubmissionResult,
  TailRequest,
  TailSubmission,
  ViewStateValue,
  ViewStateValues,
} from './types.js';

import { ARMADA_IMAGE } from '../../changes/operations/armada.image/id.js';
import { ARMADA_SCALE } from '../../changes/operations/armada.scale/id.js';
import { ARMADASET_IMAGE } from '../../changes/operations/armadaset.image/id.js';
import { ARMADASET_SCALE } from '../../changes/operations/armadaset.scale/id.js';
import { FORMATION_ADD } from '../../changes/operations/formation.add/id.js';
import { FORMATION_REMOVE } from '../../changes/operations/formation.remove/id.js';
import { GAMESERVER_TERMINATE } from '../../changes/operations/gameserver.terminate/id.js';
import { IMAGE_PROMOTE } from '../../changes/operations/image.promote/id.js';
import { REGION_CREATE } from '../../changes/operations/region.create/id.js';
import { REGION_SCHEDULING } from '../../changes/operations/region.scheduling/id.js';
import { VESSEL_CREATE } from '../../changes/operations/vessel.create/id.js';
import { VESSEL_DELETE } from '../../changes/operations/vessel.delete/id.js';

export { VESSEL_BLOCKS } from './vessel-create.js';
export { VESSEL_DELETE_BLOCKS } from './vessel-delete.js';
export { MODAL_TITLES, openingView } from './view.js';
export { WHERE_BLOCKS } from './where.js';

/**
 * The change forms, by operation: the compiler checks that every change
 * operation has one, and that what each reads is its operation's input.
 * Kinds, titles and where each form works are in src/operations/catalogue.ts.
 * An operation without a form (a rollback: its command names the change) has none here.
 */
/** The change operations with a form. */
type FormOperation = ChangeOperation & OperationOfForm<ChangeFormKind>;

const CHANGE_MODALS: {
  [K in FormOperation]: ModalDefinition<OperationInput<K>>;
} = {
  [IMAGE_PROMOTE]: promoteModal,
  [VESSEL_CREATE]: vesselCreateModal,
  [VESSEL_DELETE]: vesselDeleteModal,
  [FORMATION_ADD]: formationAddModal,
  [FORMATION_REMOVE]: formationRemoveModal,
  [REGION_CREATE]: regionCreateModal,
  [REGION_SCHEDULING]: regionSchedulingModal,
  [ARMADA_SCALE]: fleetScaleModal('Armada'),
  [ARMADASET_SCALE]: fleetScaleModal('ArmadaSet'),
  [ARMADA_IMAGE]: fleetImageModal('Armada'),
  [ARMADASET_IMAGE]: fleetImageModal('ArmadaSet'),
  [GAMESERVER_TERMINATE]: gameServerTerminateModal,
};

/** The form each of a release thread's buttons opens (the other change forms are options of "Add a change…"). */
export const RELEASE_BUTTON_FORMS: Record<keyof typeof RELEASE_ACTIONS, ModalKind> = {
  promote: 'promote',
  formationAdd: FORMATION_ADD,
  formationRemove: FORMATION_REMOVE,
  tailLogs: 'logs.follow',
};

/** The operation the change form `kind` asks for. */
function changeOperationOf(kind: ModalKind): ChangeOperation {
  const operation = operationOfForm(kind);
  if (isReadOperation(operation)) throw new Error(`the ${kind} modal starts a tail: use readTailSubmission`);
  return operation;
}

/** The modal of `kind`: a change form, or the one read with a form (the tail). */
function modalOf(kind: ModalKind): ModalShell {
  const operation = operationOfForm(kind);
  // A form kind never names change.rollback (it has no form).
  return isReadOperation(operation) ? logsFollowModal : CHANGE_MODALS[operation as FormOperation];
}

/** Throws the refusal of a form that could never be submitted for what its command named (modal `refuseBeforeOpening`). */
export async function refuseBeforeOpening(meta: ModalMetadata, deps: ModalDeps): Promise<void> {
  await modalOf(meta.kind).refuseBeforeOpening?.(meta, deps);
}

/** The place each modal works in: its environment (a select in the form), and a formation there. */
function whereOf(kind: ModalKind): WhereNeed | undefined {
  return FORMS.find((f) => f.kind === kind)?.form.where;
}

/**
 * Reads the API and builds the full view; `values` (view.state.values) keeps what
 * the user already chose. On an API error returns a view saying what failed, with
 * a retry button and Close. Until the place it needs is known the view has no
 * submit button: only the where step.
 */
export async function loadedView(
  meta: ModalMetadata,
  deps: ModalDeps,
  logger: Logger,
  values: ViewStateValues = {},
  problem?: string,
  /** The field's block id when the problem is about one field (a taken name): it is shown under it. */
  problemField?: string,
): Promise<ModalView> {
  const def = modalOf(meta.kind);
  try {
    const where = await askWhere(meta, whereOf(meta.kind), deps, values);
    // Slack wants a submit button beside input blocks; on the where step it loads the rest.
    if (!where.known) return modalView(meta, where.blocks, { submit: 'Next', close: 'Cancel' });
    // Every change form ends with When and Break glass (issue 41), a rollout of a build with Guard between
    // them (issue 42); the tail form starts no change.
    const operation = operationOfForm(meta.kind);
    const control = isReadOperation(operation) ? [] : controlBlocks(values, isGuardable(operation));
    const form = [...where.blocks, ...(await def.build(where.meta, deps, values)), ...control];
    const field = problem && problemField ? form.findIndex((b) => isInput(b, problemField)) : -1;
    if (problem && field >= 0) {
      // Slack shows field errors only in a submission's answer, long gone by now: the problem goes right under its field.
      form.splice(field + 1, 0, fieldProblemBlock(problem));
      return modalView(meta, form, { submit: def.submit, close: 'Cancel' });
    }
    // A problem only the API could find (a policy refusal, say) sits on top of the form the user filled.
    const banner = problem ? [problemBlock(problem)] : [];
    return modalView(meta, [...banner, ...form], { submit: def.submit, close: 'Cancel' });
  } catch (err) {
    return errorView(meta, describeFailure(err, logger, { modal: meta.kind }));
  }
}

/**
 * Whether a submission came from the where step, before the rest of the form
 * was loaded (the user pressed Next instead of Enter): it is to be reloaded
 * with these values, not read. No API call.
 */
export function placeMissing(meta: ModalMetadata, values: ViewStateValues): boolean {
  // A loaded form always holds its fallback block; the where step alone never does.
  return asksWhere(meta, whereOf(meta.kind)) && !(modalOf(meta.kind).fallbackBlock in values);
}

/**
 * Turns a submission's state values into the engine request, or per-block errors
 * for values that are missing or malformed. The request is checked with the
 * operation's own parse, so what it accepts the engine accepts.
 */
export function readSubmission(meta: ModalMetadata, values: ViewStateValues): SubmissionResult {
  const operation = changeOperationOf(meta.kind);
  // Each form reads its own operation's input (the table's type says so); here they are one kind of value.
  const def = CHANGE_MODALS[operation as FormOperation] as ModalDefinition;
  const read = def.read(placeOf(meta, whereOf(meta.kind), values), values);
  const input = read.ok ? read.input : read.partial;
  const problems = input ? validationProblems(operation, input) : [];
  const control = readControl(values, isGuardable(operation));
  if (read.ok && problems.length === 0 && control.ok)
    return { ok: true, operation, input: read.input, ...control.control } as SubmissionResult;
  // Every problem at once: the modal's own, then the operation's on fields the modal found nothing wrong
  // with, and the control fields' (their own blocks).
  const errors = {
    ...mapProblems(def, problems, values),
    ...(read.ok ? {} : read.errors),
    ...(control.ok ? {} : control.errors),
  };
  return { ok: false, errors };
}

// The operation's own validation problems for `input` (none when it parses).
function validationProblems(operation: ChangeOperation, input: Record<string, unknown>): FieldProblem[] {
  try {
    operationModule(operation).parse(input);
    return [];
  } catch (err) {
    if (err instanceof ValidationError) return err.problems;
    throw err;
  }
}

/** Turns a "Tail logs" submission into the tail to start, or per-block errors; no API call. */
export function readTailSubmission(meta: ModalMetadata, values: ViewStateValues): TailSubmission {
  return logsFollowModal.read(placeOf(meta, whereOf(meta.kind), values), values);
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
  return mapProblems(modalOf(meta.kind), problems, values);
}

/** The block of `meta`'s form that shows a problem with request `field`; undefined when none does. */
export function fieldBlock(meta: ModalMetadata, field: string, values?: ViewStateValues): string | undefined {
  return modalOf(meta.kind).blockFor(field, values);
}

function isInput(block: KnownBlock, blockId: string): boolean {
  return block.type === 'input' && block.block_id === blockId;
}
