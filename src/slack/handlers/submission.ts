/**
 * What every modal submission strategy shares: the ack it answers with and
 * the step that shows its outcome in the modal afterwards (a live tail's; a
 * change form closes instead, preview-submission.ts). A leaf of the
 * modal flows, so each strategy (changes in modal.ts, live tails in
 * releases/tail-modal.ts) uses it without importing the others.
 */
import type { ModalView } from '@slack/types';
import type { ModalMetadata } from '../ids.js';
import type { ViewStateValues } from '../modals/types.js';
import { renderError } from '../render/errors.js';
import { statusView } from '../render/status-view.js';
import type { Actor } from './actor.js';
import type { BotContext, SubmitCtx } from './context.js';
import { withKnownNames } from './known-names.js';
import { updateOpenedView } from './opened-views.js';

/** What to ack a submission with: inline errors (modal stays as is) or a status view. */
type SubmissionAck =
  | { response_action: 'errors'; errors: Record<string, string> }
  | { response_action: 'update'; view: ModalView }
  /** Closes the modal: the answer is posted where the change is (a change form's preview). */
  | { response_action: 'clear' };

/** A checked submission: the ack and, when the submission is good, the work to run after acking. */
export interface CheckedSubmission {
  ack: SubmissionAck;
  // Not named `then`: an object with a `then` method is a thenable, and awaiting it would run the work.
  afterAck?: () => Promise<void>;
}

/** What the modal kinds' checks read between them (a change preview, a live tail, reloading the form). */
type SubmitDeps = SubmitCtx;

/** How one kind of modal checks its submission (no API call: the ack carries the answer). */
export type SubmitStrategy = (
  ctx: SubmitDeps,
  meta: ModalMetadata,
  values: ViewStateValues,
  viewId: string,
  actor: Actor,
  /** The submission's trigger id (valid 3 s): a form that closed can open again with it. */
  triggerId?: string,
) => CheckedSubmission;

/**
 * After a submission was acked with a status view: runs `work` and shows the
 * view it returns, or what went wrong (counted as an error under `where`).
 */
export async function showOutcome(
  ctx: Pick<BotContext, 'clock' | 'environments' | 'logger' | 'metrics' | 'slack' | 'store'>,
  viewId: string,
  where: string,
  failureTitle: string,
  work: () => Promise<ModalView>,
  failureNote = '',
): Promise<void> {
  let view: ModalView;
  try {
    view = await work();
  } catch (err) {
    const message = renderError(withKnownNames(ctx, err), ctx.logger.child({ where }));
    ctx.metrics.errors.inc({ where });
    view = statusView(failureTitle, `${message.text}${failureNote}`);
  }
  await updateOpenedView(ctx, { view_id: viewId, view });
}
