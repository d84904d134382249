/**
 * A change form's good submission (issue 18.13): the modal closes with the
 * ack (`response_action: clear`), and the preview posted in the channel (or
 * release thread) is the answer, so nobody has to close a "Preview posted"
 * modal. The ack still waits for nothing: the preview is built behind it.
 *
 * When the preview is refused for a reason only the API could find (a taken
 * name, a policy refusal, a guard the policy does not allow), the form comes
 * back as the person filled it, with the problem under its field, opened with
 * the submission's own trigger id (valid 3 s). When that has expired, the
 * problem goes to them privately in the channel instead.
 */
import { GuardRefusedError, NameTakenError, ScheduleTimeError } from '../../changes/errors.js';
import type { ChangeInput } from '../../changes/requests/index.js';
import { UserError } from '../../errors/user-error.js';
import type { ModalMetadata } from '../ids.js';
import { GUARD_BLOCK, WHEN_BLOCK } from '../modals/control-fields.js';
import { fieldBlock, loadedView, openingView } from '../modals/index.js';
import type { ControlAsk, ViewStateValues } from '../modals/types.js';
import { renderError } from '../render/errors.js';
import { renderJoinedRelease } from '../render/joined-release.js';
import type { PlacedChange } from '../render/permalink.js';
import { formAsker } from './actor.js';
import type { Actor, RequestCtx } from './context.js';
import { withKnownNames } from './known-names.js';
import { rememberOpenedView, updateOpenedView } from './opened-views.js';
import { ephemeralReplyTo } from './private-reply.js';
import { requestChange } from './request-change.js';

type PreviewDeps = RequestCtx;

/**
 * Behind the ack that closed the form: asks for the change and posts its
 * preview; a refusal reopens the form (or is told privately). Anything else
 * throws, for the listener path to report to the person once.
 */
export async function previewAfterClose(
  ctx: PreviewDeps,
  meta: ModalMetadata,
  values: ViewStateValues,
  requested: ChangeInput & ControlAsk,
  actor: Actor,
  triggerId: string | undefined,
): Promise<void> {
  let change: PlacedChange;
  const { at, breakGlass, guard, ...input } = requested;
  try {
    change = await requestChange(ctx, actor, input as ChangeInput, meta.releaseId, {
      ...(at !== undefined ? { at } : {}),
      ...(breakGlass !== undefined ? { breakGlass } : {}),
      ...(guard !== undefined ? { guard } : {}),
    });
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    // A form speaks its fields' words: a refused guard is told as the Guard field's, not the flag's.
    const told = err instanceof GuardRefusedError ? new UserError(err.formMessage, err.kind) : err;
    const problem = renderError(withKnownNames(ctx, told), ctx.logger).text;
    const field =
      err instanceof NameTakenError
        ? fieldBlock(meta, err.field, values)
        : err instanceof ScheduleTimeError
          ? WHEN_BLOCK
          : err instanceof GuardRefusedError
            ? GUARD_BLOCK
            : undefined;
    if (triggerId && (await reopenForm(ctx, actor, triggerId, meta, values, problem, field))) return;
    await ephemeralReplyTo(
      ctx.slack,
      actor,
    )({
      text: `${problem} Nothing was changed.`,
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: `:warning: ${problem}\nNothing was changed; open the form again to fix it.`,
          },
        },
      ],
    });
    return;
  }
  // The preview went into the release thread, maybe out of view: the person hears where, with a link.
  if (meta.releaseId) {
    const release = await ctx.store.getRelease(meta.releaseId);
    if (release) await ephemeralReplyTo(ctx.slack, actor)(renderJoinedRelease(release.title, change));
  }
}

/** Opens the form again with `values` and the problem; false when the trigger could not open it (expired). */
async function reopenForm(
  ctx: PreviewDeps,
  actor: Actor,
  triggerId: string,
  meta: ModalMetadata,
  values: ViewStateValues,
  problem: string,
  field: string | undefined,
): Promise<boolean> {
  const opened = await ctx.slack.views
    .open({ trigger_id: triggerId, view: openingView(meta) })
    .catch((err: unknown) => {
      ctx.logger.info('could not reopen a refused form; telling the person instead', { error: err });
      return undefined;
    });
  const view = opened?.view;
  if (!view?.id) return false;
  await rememberOpenedView(ctx, view);
  const form = await loadedView(
    meta,
    { queries: ctx.reads.formsFor(formAsker(actor, meta)), environments: ctx.environments },
    ctx.logger,
    values,
    problem,
    field,
  );
  await updateOpenedView(ctx, { view_id: view.id, view: form });
  return true;
}
