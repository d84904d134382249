/**
 * Button clicks and modal submissions. Each is acked first (a submission's
 * ack carries its field errors or next view, checked without any API call);
 * the work (engine, API, Slack calls) runs behind the ack on the one
 * listener path (listen.ts). Bolt gets one action listener, routing by
 * action id (action-routes.ts), and one view listener for every modal.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { alertActionRoutes } from '../alerts/listeners.js';
import { handleClick } from '../handlers/click.js';
import type { BotContext } from '../handlers/context.js';
import { checkSubmission, fillModal } from '../handlers/modal.js';
import { assertOpenedView, claimSubmission } from '../handlers/opened-views.js';
import { clickReplyVia, ephemeralReplyTo, privateReplyVia } from '../handlers/private-reply.js';
import { openRejectModal } from '../handlers/reject.js';
import { historyActionRoutes } from '../history/listeners.js';
import {
  CHANGE_ACTIONS,
  type ChangeAction,
  MODAL_CALLBACKS,
  MODAL_RELOAD_ACTION,
  REJECT_CALLBACK,
  reloadsModal,
} from '../ids.js';
import { readMetadata } from '../modals/index.js';
import type { ViewStateValues } from '../modals/types.js';
import { releaseActionRoutes } from '../releases/listeners.js';
import { SCHEDULED_ROW_BLOCK } from '../render/scheduled-list.js';
import { type ActionRoutes, type ClickArgs, routeAction } from '../routes/action-routes.js';
import { clickActor, submitActor } from '../routes/actor.js';
import { before, slotted } from '../routes/work.js';
import { tailActionRoutes } from '../tails/listeners.js';
import type { SubmitArgs } from './ack-first.js';
import type { Listen } from './listen.js';
import { rejectSubmissionRoute } from './reject.js';
import { rowActionRoutes } from './row-actions.js';
import { shareActionRoutes } from './share.js';

/** Every modal's callback id: the one view listener answers these and leaves others alone. */
const MODAL_CALLBACK_IDS: ReadonlySet<string> = new Set(Object.values(MODAL_CALLBACKS));

/** Registers the change buttons, the modal reload action and the modal submissions on `app`. */
export function registerInteractions(app: App, ctx: BotContext, listen: Listen): void {
  const routes: ActionRoutes = {
    // Live tails: the Stop and "Tail logs" buttons.
    ...tailActionRoutes(ctx),
    // Release threads: the buttons on a release message open its modals.
    ...releaseActionRoutes(ctx),
    // The history answer's Older button, and "Share in channel" on private read answers.
    ...historyActionRoutes(ctx),
    ...alertActionRoutes(ctx),
    ...shareActionRoutes(ctx),
    // Show, Logs, Delete and Promote on the rows of list and show answers.
    ...rowActionRoutes(ctx),
    ...changeActionRoutes(ctx),
    [MODAL_RELOAD_ACTION]: modalReloadRoute(ctx),
  };
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions' },
    listen('click', (args: ClickArgs) =>
      // A type-ahead's pick that reloads the modal is the reload action under the select's own id.
      reloadsModal(args.action.action_id)
        ? routeAction(routes, { ...args, action: { ...args.action, action_id: MODAL_RELOAD_ACTION } })
        : routeAction(routes, args),
    ),
  );
  registerSubmissions(app, ctx, listen);
}

/** Confirm, Cancel, Approve and Reject on change messages (and in the approvals list). */
function changeActionRoutes(ctx: BotContext): ActionRoutes {
  const routes: ActionRoutes = {};
  for (const [action, actionId] of Object.entries(CHANGE_ACTIONS) as [ChangeAction, string][]) {
    routes[actionId] = ({ body, action: button, respond }: ClickArgs) => {
      // Only the few fields the job needs are kept (a handful of field reads before the ack):
      // in a burst, queued jobs would otherwise each hold the click's whole payload, with the
      // message it sits on, until their turn, and the garbage collector would pay for it.
      const actor = clickActor(body);
      // A click in an ephemeral message (the approvals list) or on the Home tab cannot see the change
      // message it rewrites, so the clicker is told every outcome.
      const fromHome = (body.view as { type?: string } | undefined)?.type === 'home';
      const privateOrigin =
        fromHome || (body.container as { is_ephemeral?: boolean } | undefined)?.is_ephemeral === true;
      const changeId = button.value ?? '';
      const triggerId = body.trigger_id;
      const listResponseUrl = privateOrigin ? body.response_url : undefined;
      // A Cancel in the scheduled list (render/scheduled-list.ts) is answered privately; that list is not the approvals list.
      const fromApprovals =
        privateOrigin && !fromHome && !(button.block_id ?? '').startsWith(SCHEDULED_ROW_BLOCK);
      return {
        work: () => {
          const reply = clickReplyVia(ctx, body, respond);
          if (action === 'reject') {
            // Reject asks for the reason first (its modal's submission rejects: listeners/reject.ts).
            const meta = {
              changeId,
              channel: actor.channel,
              ...(listResponseUrl ? { listResponseUrl } : {}),
            };
            let check: (() => Promise<void>) | undefined;
            return {
              name: 'click reject',
              actor,
              reply,
              tally: { counter: 'interactions', action: 'change.reject', errorsOnly: true },
              steps: [
                // The trigger id works once, within 3 s: the modal opens before the click waits for a slot.
                before(async () => {
                  check = await openRejectModal(ctx, triggerId, meta, actor, reply);
                }),
                ...slotted(async () => {
                  await check?.();
                }),
              ],
            };
          }
          return {
            name: `click ${action}`,
            actor,
            reply,
            // The engine's outcome (applied, stale, refused...) is counted by handleClick itself.
            tally: { counter: 'interactions', action: `change.${action}`, errorsOnly: true },
            steps: slotted(async () => {
              await handleClick(ctx, action, changeId, actor, reply, {
                privateOrigin,
                // A click in the approvals list replaces that list with a fresh one.
                ...(fromApprovals ? { replaceList: privateReplyVia(respond, { replace: true }) } : {}),
              });
            }),
          };
        },
      };
    };
  }
  return routes;
}

/** A modal input that reloads the modal's choices (a dispatched action, not a button). */
function modalReloadRoute(ctx: BotContext): ActionRoutes[string] {
  return ({ body }: { body: BlockAction }) => ({
    work: () => {
      const view = body.view;
      const meta = view && readMetadata(view.private_metadata);
      if (!view || !meta) return undefined;
      return {
        // No reply: a failed reload leaves the modal as it was, which the user sees.
        name: 'modal reload',
        steps: slotted(async () => {
          await fillModal(
            ctx,
            submitActor(body.user, body.team?.id, meta),
            meta,
            view.id,
            view.hash,
            view.state.values as ViewStateValues,
          );
        }),
      };
    },
  });
}

/** One view listener for every modal's submission; its route also decides the ack before the chain (ack-first.ts). */
function registerSubmissions(app: App, ctx: BotContext, listen: Listen): void {
  const rejectReason = rejectSubmissionRoute(ctx);
  app.view(
    { type: 'view_submission' },
    listen.submit(({ body, view }: SubmitArgs) => {
      // Reject's reason modal is not a change form: its own route checks and rejects.
      if (view.callback_id === REJECT_CALLBACK) return rejectReason({ body, view });
      if (!MODAL_CALLBACK_IDS.has(view.callback_id)) return {};
      const meta = readMetadata(view.private_metadata);
      if (!meta) return { ack: { response_action: 'errors', errors: {} } };
      const actor = submitActor(body.user, body.team?.id, meta);
      // The modal is gone once acked without a view (or closed): problems reach the user in the channel.
      const reply = ephemeralReplyTo(ctx.slack, actor);
      let checked: ReturnType<typeof checkSubmission>;
      try {
        // Checks the fields only (no API call): the ack must carry field errors or the next view.
        checked = checkSubmission(
          ctx,
          meta,
          view.state.values as ViewStateValues,
          view.id,
          actor,
          // Only a submission carries one (the view_closed payload has none).
          'trigger_id' in body ? body.trigger_id : undefined,
        );
      } catch (err) {
        return {
          work: () => ({
            name: `submit ${meta.kind}`,
            actor,
            reply,
            steps: slotted(() => Promise.reject(err)),
          }),
        };
      }
      const invalid = checked.ack.response_action === 'errors';
      // A good change form closes with its ack and its preview follows: that is the submission to do once.
      const previews = checked.ack.response_action === 'clear';
      const afterAck = checked.afterAck;
      return {
        ack: checked.ack,
        work: () => ({
          name: `submit ${meta.kind}`,
          actor,
          reply,
          // Counted as the ack answered: invalid (field errors) or ok; the work reports its own failures.
          tally: { counter: 'interactions', action: `submit.${meta.kind}`, errorAs: 'ok' },
          steps: slotted(async () => {
            // Checked behind the ack (a store read): a forged view's work never starts.
            await assertOpenedView(ctx, view.id, view.hash);
            // The same submission delivered again (a retry, another replica, a replay) previews nothing more.
            if (previews && !(await claimSubmission(ctx, view.id, view.hash))) return 'duplicate';
            if (afterAck) await afterAck();
            return invalid ? 'invalid' : 'ok';
          }),
        }),
      };
    }),
  );
}
