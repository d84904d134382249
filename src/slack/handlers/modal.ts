/**
 * Modals: opened at once from the trigger (its id expires in 3 s and works
 * once), then filled with choices read from the hosting API via views.update;
 * reloaded when a choice that drives others changes; submitted into the
 * change engine. Shape problems are answered in the modal itself (inline field
 * errors in the ack); a good submission closes the modal, and planning happens
 * after the ack, the preview in the channel being the answer
 * (preview-submission.ts).
 */

import type { Asker } from '../../changes/authorize.js';
import { missingEnvironment } from '../../changes/not-found.js';
import { UserError } from '../../errors/user-error.js';
import { describe, type OperationDescriptor, operationOfForm } from '../../operations/index.js';
import type { ModalMetadata } from '../ids.js';
import {
  loadedView,
  openingView,
  placeMissing,
  readSubmission,
  refuseBeforeOpening,
} from '../modals/index.js';
import type { ViewStateValues } from '../modals/types.js';
import { type Actor, formAsker } from './actor.js';
import type { FormCtx, SubmitCtx } from './context.js';
import { rememberOpenedView, updateOpenedView } from './opened-views.js';
import { previewAfterClose } from './preview-submission.js';
import type { CheckedSubmission, SubmitStrategy } from './submission.js';
import { checkTailSubmission } from './tail-submission.js';

/**
 * Opens the loading view now (the trigger expires 3 s after the click);
 * returns the slower step that fills it in, for the caller to run when it may.
 * An environment the config does not list is checked first, so a mistyped one
 * is answered in text instead of a form that cannot load.
 */
export async function openModal(
  ctx: FormCtx,
  triggerId: string,
  meta: ModalMetadata,
  asker: Pick<Asker, 'user' | 'team'>,
): Promise<() => Promise<void>> {
  await Promise.all([
    meta.environment ? ensureEnvironment(ctx, formAsker(asker, meta), meta.environment) : undefined,
    refuseEarly(ctx, formAsker(asker, meta), meta),
  ]);
  const opened = await ctx.slack.views.open({ trigger_id: triggerId, view: openingView(meta) });
  const view = opened.view;
  return async () => {
    await rememberOpenedView(ctx, view);
    if (view?.id) await fillModal(ctx, asker, meta, view.id, view.hash);
  };
}

/** Reads the API and replaces the view with the loaded one (keeping what the user chose in `values`). */
export async function fillModal(
  ctx: FormCtx,
  person: Pick<Asker, 'user' | 'team'>,
  meta: ModalMetadata,
  viewId: string,
  hash: string | undefined,
  values?: ViewStateValues,
): Promise<void> {
  const loaded = await loadedView(
    meta,
    { queries: ctx.reads.formsFor(formAsker(person, meta)), environments: ctx.environments },
    ctx.logger,
    values,
  );
  try {
    await updateOpenedView(ctx, { view_id: viewId, ...(hash ? { hash } : {}), view: loaded });
  } catch (err) {
    // hash_conflict: the user changed the modal again meanwhile; that change triggers its own reload.
    if ((err as { data?: { error?: string } }).data?.error === 'hash_conflict') return;
    throw err;
  }
}

// The trigger id lasts 3 s: an unknown environment gets at most this long to answer before the form opens anyway.
const ENVIRONMENT_CHECK_MS = 1500;

// Throws a NotFoundError when the hosting API says `environment` does not exist; configured ones cost no call.
async function ensureEnvironment(ctx: FormCtx, asker: Asker, environment: string): Promise<void> {
  if (ctx.environments.includes(environment)) return;
  const timeout = new AbortController();
  const verdict = await Promise.race([
    ctx.reads.formsFor(asker).environmentExists(environment),
    ctx.clock.sleep(ENVIRONMENT_CHECK_MS, timeout.signal).then(() => 'unknown' as const),
  ]).finally(() => timeout.abort());
  if (verdict === 'missing') throw missingEnvironment(environment);
}

/**
 * A form its command named something for that can never be submitted (an
 * Armada its ArmadaSet owns, for its scale form) is refused before it opens,
 * as the typed command is; within the environment check's time budget, after
 * which the form opens and its submission refuses it.
 */
async function refuseEarly(ctx: FormCtx, asker: Asker, meta: ModalMetadata): Promise<void> {
  const timeout = new AbortController();
  await Promise.race([
    // Only a refusal stops the form: a read that fails leaves the judgement to the submission.
    refuseBeforeOpening(meta, { queries: ctx.reads.formsFor(asker), environments: ctx.environments }).catch(
      (err) => {
        if (err instanceof UserError) throw err;
      },
    ),
    ctx.clock.sleep(ENVIRONMENT_CHECK_MS, timeout.signal),
  ]).finally(() => timeout.abort());
}

/**
 * How each modal's submission is checked and what it starts: a change's form
 * previews the change; the one read with a form ("Tail logs") starts a live
 * tail. Chosen by the kind of operation the form asks for.
 */
const SUBMIT_STRATEGIES: Record<OperationDescriptor['kind'], SubmitStrategy> = {
  change: checkChangeSubmission,
  read: checkTailSubmission,
};

/**
 * Checks a submission without any API call. Returns the ack and, when the
 * submission is good, the work to run after acking.
 */
export const checkSubmission: SubmitStrategy = (ctx, meta, values, viewId, actor, triggerId) => {
  // The where step's Next (src/slack/modals/where.ts): load the rest of the form with what was picked.
  if (placeMissing(meta, values)) {
    return {
      ack: { response_action: 'update', view: openingView(meta) },
      afterAck: () => fillModal(ctx, actor, meta, viewId, undefined, values),
    };
  }
  return SUBMIT_STRATEGIES[describe(operationOfForm(meta.kind)).kind](
    ctx,
    meta,
    values,
    viewId,
    actor,
    triggerId,
  );
};

/**
 * A modal that previews a change: the fields and the operation's own
 * validation in the ack (errors stay on the form), else the form closes and
 * the preview is built behind the ack (preview-submission.ts).
 */
function checkChangeSubmission(
  ctx: SubmitCtx,
  meta: ModalMetadata,
  values: ViewStateValues,
  _viewId: string,
  actor: Actor,
  triggerId?: string,
): CheckedSubmission {
  // Shape and the operation's own validation (no API call), so problems show inline on the fields.
  const read = readSubmission(meta, values);
  if (!read.ok) return { ack: { response_action: 'errors', errors: read.errors } };
  return {
    ack: { response_action: 'clear' },
    afterAck: () => previewAfterClose(ctx, meta, values, read, actor, triggerId),
  };
}
