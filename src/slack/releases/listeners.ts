/**
 * The buttons on a release message. Each opens a modal from the click's
 * trigger as soon as it is acked (it expires in 3 s and works once), then checks the release
 * is still open and loads the form. The button carries only the release id;
 * the modal's metadata points the preview (or the tail) into the release
 * thread, so everything started there stays there.
 */

import { UserError } from '../../errors/user-error.js';
import type { EndChoice } from '../../releases/types.js';
import type { ReleaseRecord } from '../../store/types.js';
import type { ModalKind } from '../grammar/command.js';
import type { BotContext, SubmitCtx } from '../handlers/context.js';
import { refuseFormEarly } from '../handlers/form-gate.js';
import { fillModal } from '../handlers/modal.js';
import { rememberOpenedView, updateOpenedView } from '../handlers/opened-views.js';
import { privateReplyVia } from '../handlers/private-reply.js';
import {
  type ModalMetadata,
  RELEASE_ACTIONS,
  RELEASE_ADD_ACTION,
  RELEASE_END_ACTION,
  RELEASE_END_CHOICE_ACTIONS,
  RELEASE_ROLLBACK_ACTION,
} from '../ids.js';
import { escapeMrkdwn } from '../limits.js';
import { openingView, RELEASE_BUTTON_FORMS } from '../modals/index.js';
import { ADD_A_CHANGE } from '../render/release-message.js';
import { statusView } from '../render/status-view.js';
import type { ActionRoute, ActionRoutes, ClickArgs } from '../routes/action-routes.js';
import { clickActor } from '../routes/actor.js';
import { before, slotted } from '../routes/work.js';
import { answerEnd } from './end.js';
import { readEndValue } from './end-value.js';
import { releaseRollbackRoute } from './rollback.js';

type RouteCtx = SubmitCtx;

/** The routes of the release message's buttons and select, and of the choice an end asks for, by action id. */
export function releaseActionRoutes(ctx: RouteCtx): ActionRoutes {
  const routes: ActionRoutes = {
    [RELEASE_END_ACTION]: endButtonRoute(ctx),
    [RELEASE_ROLLBACK_ACTION]: releaseRollbackRoute(ctx),
    [RELEASE_END_CHOICE_ACTIONS.cancel]: endChoiceRoute(ctx, 'cancel'),
    [RELEASE_END_CHOICE_ACTIONS.keep]: endChoiceRoute(ctx, 'keep'),
    // "Add a change…": the option picked names the form and the release.
    [RELEASE_ADD_ACTION]: openFormRoute(ctx, RELEASE_ADD_ACTION, (action) => readAddOption(action)),
  };
  for (const [name, actionId] of Object.entries(RELEASE_ACTIONS) as [
    keyof typeof RELEASE_ACTIONS,
    string,
  ][]) {
    routes[actionId] = openFormRoute(ctx, actionId, (button) => ({
      kind: RELEASE_BUTTON_FORMS[name],
      releaseId: button.value ?? '',
    }));
  }
  return routes;
}

/** A click that opens a release's form: `formOf` reads which form and release from the action. */
function openFormRoute(
  ctx: RouteCtx,
  actionId: string,
  formOf: (action: ClickArgs['action']) => { kind: ModalKind; releaseId: string } | undefined,
): ActionRoute {
  return ({ body, action, respond }: ClickArgs) => ({
    work: () => {
      const form = formOf(action);
      const channel = body.channel?.id ?? '';
      const meta: ModalMetadata | undefined = form && {
        kind: form.kind,
        channel,
        ...(body.channel?.name ? { channelName: body.channel.name } : {}),
        ...(body.message?.ts ? { threadTs: body.message.ts } : {}),
        releaseId: form.releaseId,
      };
      let fill: (() => Promise<void>) | undefined;
      return {
        name: `click ${actionId}`,
        actor: clickActor(body),
        reply: privateReplyVia(respond),
        // The trigger id works once, within 3 s: the modal opens before the click waits for a slot.
        steps: [
          before(async () => {
            if (!meta)
              throw new UserError('That choice is not one this release offers; pick another.', 'validation');
            await refuseFormEarly(ctx, clickActor(body), meta);
            fill = await openReleaseModal(ctx, body.trigger_id, meta, clickActor(body));
          }),
          ...slotted(async () => {
            await fill?.();
          }),
        ],
        tally: { counter: 'interactions', action: actionId },
      };
    },
  });
}

/** The form and release of an "Add a change…" option (`<kind> <release id>`); undefined for anything else. */
function readAddOption(action: ClickArgs['action']): { kind: ModalKind; releaseId: string } | undefined {
  const picked = 'selected_option' in action ? action.selected_option : undefined;
  const value = picked && typeof picked === 'object' && 'value' in picked ? picked.value : undefined;
  if (typeof value !== 'string') return undefined;
  const [kind, releaseId, ...rest] = value.split(' ');
  const option = ADD_A_CHANGE.find((o) => o.modal === kind);
  if (!option || !releaseId || rest.length) return undefined;
  return { kind: option.modal, releaseId };
}

/**
 * Opens the loading view now (the trigger expires 3 s after the click) and
 * returns the slower step: load the form for the release as stored (its
 * channel and message are the truth, not the click's payload), or say in the
 * modal that the release has ended.
 */
async function openReleaseModal(
  ctx: Pick<BotContext, 'reads' | 'clock' | 'environments' | 'logger' | 'releases' | 'slack' | 'store'>,
  triggerId: string,
  meta: ModalMetadata,
  person: { user: string; team: string },
): Promise<() => Promise<void>> {
  const opened = await ctx.slack.views.open({ trigger_id: triggerId, view: openingView(meta) });
  const view = opened.view;
  return async () => {
    await rememberOpenedView(ctx, view);
    if (!view?.id) return;
    let release: ReleaseRecord;
    try {
      release = await ctx.releases.openRelease(meta.releaseId ?? '');
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      await updateOpenedView(ctx, {
        view_id: view.id,
        view: statusView('Release closed', `${escapeMrkdwn(err.message)} Nothing was changed.`),
      });
      return;
    }
    const where: ModalMetadata = {
      ...meta,
      channel: release.channel,
      ...(release.messageTs ? { threadTs: release.messageTs } : {}),
    };
    await fillModal(ctx, person, where, view.id, view.hash);
  };
}

/** "End release": ends the release the button carries, as `release end <id>` would, and tells the clicker. */
function endButtonRoute(ctx: RouteCtx): ActionRoute {
  return ({ body, action: button, respond }: ClickArgs) => ({
    work: () => {
      const actor = clickActor(body);
      const reply = privateReplyVia(respond);
      const ref = button.value ?? '';
      return {
        name: `click ${RELEASE_END_ACTION}`,
        actor,
        reply,
        steps: slotted(async () => {
          // The button carries the id, so the release is found exactly (never "ambiguous").
          await answerEnd(ctx, await ctx.releases.end(actor, ref), reply, ref);
        }),
        tally: { counter: 'interactions', action: RELEASE_END_ACTION },
      };
    },
  });
}

/**
 * "Cancel them and end" / "Keep them and end": ends the release as chosen.
 * The button carries the release's version and the changes it listed, so a
 * second click finds the release ended, and a change that started waiting
 * since is asked about again rather than decided for.
 */
function endChoiceRoute(ctx: RouteCtx, waiting: EndChoice['waiting']): ActionRoute {
  const actionId = RELEASE_END_CHOICE_ACTIONS[waiting];
  return ({ body, action: button, respond }: ClickArgs) => ({
    work: () => {
      const actor = clickActor(body);
      // Errors (a second click: "already ended") are new notes; they never replace the answer to the first.
      const reply = privateReplyVia(respond);
      // The question is answered: the answer takes its place, so its buttons cannot be pressed again.
      const answer = privateReplyVia(respond, { replace: true });
      const value = readEndValue(button.value);
      return {
        name: `click ${actionId}`,
        actor,
        reply,
        steps: slotted(async () => {
          if (!value) throw new UserError('This button does not name a release; end it again.', 'validation');
          const choice: EndChoice = { waiting, version: value.version, digest: value.digest };
          await answerEnd(ctx, await ctx.releases.end(actor, value.release, choice), answer, value.release);
        }),
        tally: { counter: 'interactions', action: actionId },
      };
    },
  });
}
