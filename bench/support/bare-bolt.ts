/**
 * The baseline: a Bolt App on an HTTPReceiver, configured like the bot
 * (signing secret, token, Web API pointed at the stand-in), whose every
 * command, action and view listener only acks. Whatever Harbormaster adds on top of
 * this before its ack is what the benchmark shows.
 */
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';

/** A started no-op Bolt app. */
export interface BareBolt {
  eventsUrl: string;
  stop(): Promise<void>;
}

/** Starts the no-op app on a free port of 127.0.0.1. */
export async function startBareBolt(options: {
  signingSecret: string;
  token: string;
  slackApiUrl: string;
}): Promise<BareBolt> {
  const receiver = new HTTPReceiver({
    signingSecret: options.signingSecret,
    endpoints: '/slack/events',
    logLevel: LogLevel.ERROR,
  });
  const app = new App({
    token: options.token,
    receiver,
    logLevel: LogLevel.ERROR,
    deferInitialization: true,
    clientOptions: { slackApiUrl: options.slackApiUrl, retryConfig: { retries: 0 } },
  });
  app.command(/.*/, async ({ ack }) => {
    await ack();
  });
  app.action(/.*/, async ({ ack }) => {
    await ack();
  });
  app.view(/.*/, async ({ ack }) => {
    await ack();
  });
  // The same start-up as the bot's: auth.test against the stand-in, then listen.
  await app.init();
  const server = await receiver.start(0);
  const { port } = server.address() as AddressInfo;
  return {
    eventsUrl: `http://127.0.0.1:${port}/slack/events`,
    stop: () => receiver.stop(),
  };
}
