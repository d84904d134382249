/**
 * The buttons on a release message. Each opens a modal from the click's
 * trigger as soon as it is acked (it expires in 3 s and works once), then checks the release
 * is still open and loads the form. The button carries only the release id;
 * the modal's metadata points the preview (or the tail) into the release
 * thread, so everything started there stays there.
 */
import { UserError } from '../../errors/user-error.js';
import type { ReleaseRecord } from '../../store/types.js';
import type { ModalKind } from '../grammar/command.js';
import type { BotContext } from '../handlers/context.js';
import { refuseFormEarly } from '../handlers/form-gate.js';
import { fillModal } from '../handlers/modal.js';
import { rememberOpenedView, updateOpenedView } from '../handlers/opened-views.js';
import { type ModalMetadata, RELEASE_ACTIONS, RELEASE_END_ACTION } from '../ids.js';
import type { ActionRoute, ActionRoutes, ClickArgs } from '../listeners/action-routes.js';
import { clickActor } from '../listeners/actor.js';
import { privateReplyVia } from '../listeners/private-reply.js';
import { openingView } from '../modals/index.js';
import { escapeMrkdwn } from '../render/limits.js';
import { renderReleaseEnded } from '../render/release-message.js';
import { statusView } from '../render/status-view.js';

/** The modal each release button opens. */
const RELEASE_MODALS: Record<keyof typeof RELEASE_ACTIONS, ModalKind> = {
  promote: 'promote',
  formationAdd: 'formation.add',
  formationRemove: 'formation.remove',
  armadaScale: 'armada.scale',
  armadaSetScale: 'armadaset.scale',
  armadaImage: 'armada.image',
  armadaSetImage: 'armadaset.image',
  tailLogs: 'logs.follow',
};

/** The routes of the release message's buttons, by action id. */
export function releaseActionRoutes(
  ctx: Pick<
    BotContext,
    'reads' | 'clock' | 'environments' | 'logger' | 'metrics' | 'policy' | 'releases' | 'slack' | 'store'
  >,
): ActionRoutes {
  const routes: ActionRoutes = { [RELEASE_END_ACTION]: endButtonRoute(ctx) };
  for (const [name, actionId] of Object.entries(RELEASE_ACTIONS) as [
    keyof typeof RELEASE_ACTIONS,
    string,
  ][]) {
    routes[actionId] = ({ body, action: button, respond }: ClickArgs) => ({
      job: () => {
        const channel = body.channel?.id ?? '';
        const meta: ModalMetadata = {
          kind: RELEASE_MODALS[name],
          channel,
          ...(body.channel?.name ? { channelName: body.channel.name } : {}),
          ...(body.message?.ts ? { threadTs: body.message.ts } : {}),
          releaseId: button.value ?? '',
        };
        let fill: (() => Promise<void>) | undefined;
        return {
          name: `click ${actionId}`,
          actor: clickActor(body),
          reply: privateReplyVia(respond),
          // The trigger id works once, within 3 s: the modal opens before the click waits for a slot.
          now: async () => {
            await refuseFormEarly(ctx, clickActor(body), meta);
            fill = await openReleaseModal(ctx, body.trigger_id, meta);
          },
          run: async () => {
            await fill?.();
            return undefined;
          },
          count: (outcome) => ctx.metrics.interactions.inc({ action: actionId, outcome }),
        };
      },
    });
  }
  return routes;
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
    await fillModal(ctx, where, view.id, view.hash);
  };
}

/** "End release": ends the release the button carries, as `release end <id>` would, and tells the clicker. */
function endButtonRoute(ctx: Pick<BotContext, 'metrics' | 'releases'>): ActionRoute {
  return ({ body, action: button, respond }: ClickArgs) => ({
    job: () => {
      const actor = clickActor(body);
      const reply = privateReplyVia(respond);
      return {
        name: `click ${RELEASE_END_ACTION}`,
        actor,
        reply,
        run: async () => {
          // The button carries the id, so the release is found exactly (never "ambiguous").
          const outcome = await ctx.releases.end(actor, button.value ?? '');
          if (outcome.kind === 'ended')
            await reply(renderReleaseEnded(outcome.release, outcome.tailsStopped));
          return undefined;
        },
        count: (outcome) => ctx.metrics.interactions.inc({ action: RELEASE_END_ACTION, outcome }),
      };
    },
  });
}
