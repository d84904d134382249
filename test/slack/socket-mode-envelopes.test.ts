/**
 * Issue 22, point 10 (in part): Socket Mode envelopes meet the same shape
 * check as HTTP bodies (payload-shape.ts) and feed the ack watch. A real
 * Socket Mode receiver and Bolt app, with envelopes handed to the receiver's
 * socket client as the socket would hand them (so each ack is seen as it is
 * called; test/e2e/slack/socket-mode-replicas.test.ts sends envelopes over
 * the stand-in's WebSocket): a malformed one is acked and refused before any listener runs,
 * a good one reaches its listener, and while it waits for its ack the watch
 * counts it.
 */
import { afterEach, expect, it } from '@jest/globals';
import { App } from '@slack/bolt';
import type { SlackConfig } from '../../src/config/config.js';
import { createMemoryLogger } from '../../src/runtime/logger.js';
import { createReceiver } from '../../src/slack/receiver.js';
import { AckWatch } from '../../src/slack/runtime/ack-watch.js';
import { TEST_BOT, TEST_CHANNEL, TEST_TEAM } from '../../src/workspace/identity.js';
import { type SlackStandIn, startSlackStandIn } from '../../src/workspace/stand-in.js';

let standIn: SlackStandIn | undefined;
afterEach(async () => {
  await standIn?.stop();
});

async function socketBot() {
  standIn = await startSlackStandIn({ token: TEST_BOT.token });
  const slack = {
    mode: 'socket',
    botToken: TEST_BOT.token,
    appToken: 'xapp-1-A0HARBOR-socket-test-token',
    apiUrl: standIn.apiUrl,
    command: '/harbor',
    port: 0,
  } satisfies SlackConfig;
  const logs = createMemoryLogger();
  const acks = new AckWatch();
  const receiver = createReceiver(slack, [], logs, { acks });
  // Authorization answers from what the test knows: a token alone makes Bolt call auth.test at
  // construction, and a call still in flight when the stand-in stops would retry for half an hour
  // after the test ended (it once held CI open for 25 minutes and then crashed it).
  const app = new App({
    authorize: async () => ({ botToken: TEST_BOT.token, botId: TEST_BOT.botId, botUserId: TEST_BOT.userId }),
    receiver: receiver.receiver,
    clientOptions: { slackApiUrl: standIn.apiUrl, retryConfig: { retries: 0 } },
  });
  const heard: string[] = [];
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  app.command('/harbor', async ({ command, ack }) => {
    heard.push(command.text);
    if (command.text === 'hold') await held;
    await ack();
  });
  const client = (receiver.receiver as unknown as { client: NodeJS.EventEmitter }).client;
  const deliver = (type: string, body: unknown) => {
    const acked: unknown[] = [];
    const handled = Promise.all(
      client.listeners('slack_event').map((listener) =>
        (listener as (args: object) => Promise<void>)({
          type,
          body,
          envelope_id: 'e1',
          retry_num: 0,
          ack: async (payload?: unknown) => {
            acked.push(payload ?? null);
          },
        }),
      ),
    );
    return { acked, handled };
  };
  return { deliver, heard, release, acks, logs };
}

const command = {
  command: '/harbor',
  text: 'help',
  user_id: 'U0ALICE',
  user_name: 'alice',
  team_id: TEST_TEAM.id,
  channel_id: TEST_CHANNEL.id,
  channel_name: TEST_CHANNEL.name,
  api_app_id: TEST_BOT.appId,
  token: 'verification',
  trigger_id: '1.2.3',
  response_url: 'https://hooks.slack.com/commands/T/1/x',
};

it('acks and refuses a malformed envelope before any listener runs', async () => {
  const bot = await socketBot();
  const { user_id: _dropped, ...withoutUser } = command;
  const { acked, handled } = bot.deliver('slash_commands', withoutUser);
  await handled;
  expect(acked).toHaveLength(1);
  expect(bot.heard).toEqual([]);
  expect(bot.logs.lines.join('\n')).toMatch(/user_id is missing/);
  const interaction = bot.deliver('interactive', { type: 'view_submission', user: { id: 'U1' } });
  await interaction.handled;
  expect(interaction.acked).toHaveLength(1);
});

it('counts a good envelope in the ack watch until it is acked', async () => {
  const bot = await socketBot();
  const { acked, handled } = bot.deliver('slash_commands', { ...command, text: 'hold' });
  await new Promise<void>((resolve) => setImmediate(resolve));
  while (bot.heard.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  expect(bot.acks.waiting).toBe(1);
  bot.release();
  await handled;
  expect(acked).toHaveLength(1);
  expect(bot.acks.waiting).toBe(0);
});
