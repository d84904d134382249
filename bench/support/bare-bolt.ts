/**
 * The baseline: a Bolt App on an HTTPReceiver (or, given an app-level token,
 * a SocketModeReceiver), configured like the bot (signing secret, token, Web
 * API pointed at the stand-in), whose every command, action and view
 * listener only acks. Whatever Harbormaster adds on top of this before its
 * ack is what the benchmark shows.
 */
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, SocketModeReceiver } from '@slack/bolt';

/** A started no-op Bolt app. */
export interface BareBolt {
  /** HTTP: where to post requests. Socket Mode: undefined (the app is connected to the stand-in). */
  eventsUrl?: string;
  stop(): Promise<void>;
}

/** Starts the no-op app on a free port of 127.0.0.1, or connected over Socket Mode with `appToken`. */
export async function startBareBolt(options: {
  signingSecret: string;
  token: string;
  slackApiUrl: string;
  appToken?: string;
  /** HTTP: the port to listen on (default: one the OS picks). */
  port?: number;
}): Promise<BareBolt> {
  const clientOptions = { slackApiUrl: options.slackApiUrl, retryConfig: { retries: 0 } };
  if (options.appToken) {
    // As the bot's receiver is built (slack/receiver.ts): Socket Mode's own client asks the stand-in.
    const socket = new SocketModeReceiver({
      appToken: options.appToken,
      logLevel: LogLevel.ERROR,
      installerOptions: { clientOptions },
    });
    const app = noOpApp(options.token, socket, clientOptions);
    await app.init();
    await socket.start();
    return { stop: () => socket.stop() };
  }
  const receiver = new HTTPReceiver({
    signingSecret: options.signingSecret,
    endpoints: '/slack/events',
    logLevel: LogLevel.ERROR,
  });
  const app = noOpApp(options.token, receiver, clientOptions);
  // The same start-up as the bot's: auth.test against the stand-in, then listen.
  await app.init();
  const server = await receiver.start(options.port ?? 0);
  const { port } = server.address() as AddressInfo;
  return {
    eventsUrl: `http://127.0.0.1:${port}/slack/events`,
    stop: () => receiver.stop(),
  };
}

/** A Bolt app on `receiver` whose every command, action and view listener only acks. */
function noOpApp(
  token: string,
  receiver: HTTPReceiver | SocketModeReceiver,
  clientOptions: { slackApiUrl: string; retryConfig: { retries: number } },
): App {
  const app = new App({
    token,
    receiver,
    logLevel: LogLevel.ERROR,
    deferInitialization: true,
    clientOptions,
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
  return app;
}
