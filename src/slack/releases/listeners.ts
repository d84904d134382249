/**
 * The buttons on a release message. Each opens a modal at once from the
 * click's trigger (it expires in 3 s and works once), then checks the release
 * is still open and loads the form. The button carries only the release id;
 * the modal's metadata points the preview (or the tail) into the release
 * thread, so everything started there stays there.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { UserError } from '../../changes/errors.js';
import type { ReleaseRecord } from '../../store/types.js';
import type { ModalKind } from '../grammar/command.js';
import type { Actor, BotContext, PrivateReply } from '../handlers/context.js';
import { fillModal } from '../handlers/modal.js';
import { reportError } from '../handlers/report-error.js';
import { type ModalMetadata, RELEASE_ACTIONS, RELEASE_END_ACTION } from '../ids.js';
import { privateReplyVia } from '../listeners/private-reply.js';
import { openingView } from '../modals/index.js';
import { escapeMrkdwn } from '../render/limits.js';
import { renderReleaseEnded } from '../render/release-message.js';
import { statusView } from '../render/status-view.js';

/** The modal each release button opens. */
export const RELEASE_MODALS: Record<keyof typeof RELEASE_ACTIONS, ModalKind> = {
  promote: 'promote',
  formationAdd: 'formation.add',
  formationRemove: 'formation.remove',
  tailLogs: 'logs.follow',
};

/** Registers the release message's buttons on `app`. */
export function registerReleaseActions(app: App, ctx: BotContext): void {
  registerEndButton(app, ctx);
  for (const [name, actionId] of Object.entries(RELEASE_ACTIONS) as [
    keyof typeof RELEASE_ACTIONS,
    string,
  ][]) {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action: button, respond }) => {
      const stopAck = ctx.metrics.ackSeconds.startTimer({ kind: 'click' });
      await ack();
      stopAck();
      const channel = body.channel?.id ?? '';
      ctx.channelNames.learn(channel, body.channel?.name);
      const meta: ModalMetadata = {
        kind: RELEASE_MODALS[name],
        channel,
        ...(body.channel?.name ? { channelName: body.channel.name } : {}),
        ...(body.message?.ts ? { threadTs: body.message.ts } : {}),
        releaseId: button.value ?? '',
      };
      const reply = privateReplyVia(respond);
      await ctx.tasks.run(`click ${actionId}`, async () => {
        try {
          await openReleaseModal(ctx, body.trigger_id, meta);
          ctx.metrics.interactions.inc({ action: actionId, outcome: 'ok' });
        } catch (err) {
          ctx.metrics.interactions.inc({ action: actionId, outcome: 'error' });
          await reportError(ctx, reply, err, `click ${actionId}`);
        }
      });
    });
  }
}

/**
 * Opens the loading view first, then loads the form for the release as
 * stored (its channel and message are the truth, not the click's payload),
 * or says in the modal that the release has ended.
 */
export async function openReleaseModal(
  ctx: BotContext,
  triggerId: string,
  meta: ModalMetadata,
): Promise<void> {
  const opened = await ctx.slack.views.open({ trigger_id: triggerId, view: openingView(meta) });
  const view = opened.view;
  if (!view?.id) return;
  let release: ReleaseRecord;
  try {
    release = await ctx.releases.openRelease(meta.releaseId ?? '');
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    await ctx.slack.views.update({
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
}

/** "End release": ends the release the button carries, as `release end <id>` would, and tells the clicker. */
function registerEndButton(app: App, ctx: BotContext): void {
  app.action<BlockAction<ButtonAction>>(
    RELEASE_END_ACTION,
    async ({ ack, body, action: button, respond }) => {
      await ack();
      const actor: Actor = {
        user: body.user.id,
        team: body.team?.id ?? body.user.team_id ?? '',
        channel: body.channel?.id ?? '',
      };
      const reply = privateReplyVia(respond);
      await ctx.tasks.run(`click ${RELEASE_END_ACTION}`, async () => {
        try {
          // The button carries the id, so the release is found exactly (never "ambiguous").
          const outcome = await ctx.releases.end(actor, button.value ?? '');
          if (outcome.kind === 'ended')
            await reply(renderReleaseEnded(outcome.release, outcome.tailsStopped));
          ctx.metrics.interactions.inc({ action: RELEASE_END_ACTION, outcome: 'ok' });
        } catch (err) {
          ctx.metrics.interactions.inc({ action: RELEASE_END_ACTION, outcome: 'error' });
          await reportError(ctx, reply, err, `click ${RELEASE_END_ACTION}`);
        }
      });
    },
  );
}
