/**
 * The message shortcut "Harbormaster: show / tail logs": on a message that
 * names a vessel (an alert in an incident channel), it opens the "Tail logs"
 * form with that vessel's environment and the vessel chosen; on one naming an
 * armada, it shows the armada privately, as `armada show` would. The
 * trigger id lasts 3 s and works once, so the names are looked up and the
 * form opened before the work waits for a slot.
 */
import type { App, MessageShortcut } from '@slack/bolt';
import type { NamedResource } from '../../changes/form-queries.js';
import { UserError } from '../../errors/user-error.js';
import type { Actor, BotContext } from '../handlers/context.js';
import { openModal } from '../handlers/modal.js';
import { privateReplyVia } from '../handlers/private-reply.js';
import { answerArmada } from '../handlers/reads.js';
import { LOGS_SHORTCUT_CALLBACK } from '../ids.js';
import { before, slotted } from '../routes/work.js';
import type { Listen } from './listen.js';

/** The person who used the shortcut, in the channel of the message. */
function shortcutActor(body: MessageShortcut): Actor {
  return {
    user: body.user.id,
    team: body.user.team_id ?? body.team?.id ?? '',
    channel: body.channel.id,
    ...(body.channel.name ? { channelName: body.channel.name } : {}),
  };
}

/** Registers the message shortcut on `app`. */
export function registerShortcuts(app: App, ctx: BotContext, listen: Listen): void {
  app.shortcut<MessageShortcut>(
    { type: 'message_action', callback_id: LOGS_SHORTCUT_CALLBACK },
    listen(
      'click',
      ({ shortcut, respond }: { shortcut: MessageShortcut; respond: MessageShortcutRespond }) => ({
        work: () => {
          const actor = shortcutActor(shortcut);
          const reply = privateReplyVia(respond);
          const text = shortcut.message.text ?? '';
          let named: NamedResource | undefined;
          let fill: (() => Promise<void>) | undefined;
          return {
            name: 'shortcut logs',
            actor,
            reply,
            tally: { counter: 'interactions', action: 'shortcut.logs' },
            steps: [
              before(async () => {
                named = await ctx.reads.formsFor(actor).namedIn(text, ctx.environments);
                if (named?.kind !== 'vessel') return;
                fill = await openModal(
                  ctx,
                  shortcut.trigger_id,
                  {
                    kind: 'logs.follow',
                    channel: actor.channel,
                    ...(actor.channelName ? { channelName: actor.channelName } : {}),
                    // The tail goes in the message's thread: beside the alert it is about.
                    threadTs: shortcut.message.thread_ts ?? shortcut.message.ts,
                    environment: named.environment,
                    vessel: named.name,
                  },
                  actor,
                );
              }),
              ...slotted(async () => {
                if (!named) {
                  throw new UserError(
                    `This message names no vessel or armada in ${ctx.environments.map((e) => `\`${e}\``).join(', ')}.`,
                  );
                }
                if (named.kind === 'vessel') {
                  await fill?.();
                  return 'vessel';
                }
                const answer = await answerArmada(ctx, actor, named.environment, named.name);
                await reply(answer);
                return 'armada';
              }),
            ],
          };
        },
      }),
    ),
  );
}

type MessageShortcutRespond = Parameters<typeof privateReplyVia>[0];
