/**
 * The transport seam: Socket Mode when an app-level token is configured (no
 * public URL needed), HTTP otherwise (`/slack/events` for commands,
 * interactivity and events, signature-checked). Receivers only turn bytes into
 * events; both serve /healthz and /metrics on PORT.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, type CustomRoute, HTTPReceiver, type Receiver, SocketModeReceiver } from '@slack/bolt';
import type { WebClientOptions } from '@slack/web-api';
import type { SlackConfig } from '../config/config.js';
import type { Logger } from '../runtime/logger.js';
import type { AckWatch } from './runtime/ack-watch.js';
import { boltLogger } from './runtime/bolt-logger.js';
import { eventsEndpoint } from './runtime/events-endpoint.js';

interface BotReceiver {
  receiver: Receiver;
  mode: 'http' | 'socket';
  /** Socket Mode: whether the socket is open. HTTP: always true (Slack calls us). */
  socketOpen(): boolean;
  /** Starts listening; returns the bound HTTP port (useful with PORT=0). */
  start(): Promise<number | undefined>;
  stop(): Promise<void>;
}

const EVENTS_PATH = '/slack/events';

/** Builds the receiver the config asks for; `clientOptions` also reach Socket Mode's own Web API client. */
export function createReceiver(
  slack: SlackConfig,
  routes: CustomRoute[],
  logger: Logger,
  acks?: AckWatch,
  clientOptions: WebClientOptions = {},
): BotReceiver {
  const log = boltLogger(logger.child({ component: 'bolt' }));
  if (slack.mode === 'socket' && slack.appToken) {
    const receiver = new SocketModeReceiver({
      appToken: slack.appToken,
      logger: log,
      customRoutes: routes,
      // Bolt hands installerOptions.clientOptions to the SocketModeClient, whose WebClient
      // calls apps.connections.open: without the API URL it would always go to slack.com.
      installerOptions: {
        port: slack.port,
        clientOptions: { ...clientOptions, ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}) },
      },
    });
    let open = false;
    receiver.client.on('connected', () => {
      open = true;
    });
    receiver.client.on('disconnected', () => {
      open = false;
    });
    return {
      receiver,
      mode: 'socket',
      socketOpen: () => open,
      start: async () => {
        await receiver.start();
        return slack.port;
      },
      stop: () => receiver.stop(),
    };
  }
  const http = new HTTPReceiver({
    signingSecret: slack.signingSecret ?? '',
    endpoints: EVENTS_PATH,
    customRoutes: routes,
    logger: log,
  });
  // Bolt's receiver serves the other routes; the events path is read once, here (events-endpoint.ts).
  let app: App | undefined;
  const events = eventsEndpoint({
    signingSecret: slack.signingSecret ?? '',
    app: () => app,
    logger,
    boltLogger: log,
  });
  const others = http.requestListener;
  http.requestListener = (req, res) => {
    if (req.method === 'POST' && pathOf(req.url) === EVENTS_PATH) events(req, res);
    else others(req, res);
  };
  const receiver: Receiver = {
    init: (bolt) => {
      app = bolt;
      http.init(bolt);
    },
    start: (...args) => http.start(...(args as Parameters<HTTPReceiver['start']>)),
    stop: (...args) => http.stop(...(args as Parameters<HTTPReceiver['stop']>)),
  };
  return {
    receiver,
    mode: 'http',
    socketOpen: () => true,
    start: async () => {
      // Local mode binds to one interface (127.0.0.1) so nothing on the network reaches it.
      const listen = slack.host ? { port: slack.port, host: slack.host } : slack.port;
      const server = (await http.start(listen)) as Server;
      // Counted before Bolt sees the request, so work behind earlier acks waits for this one's ack.
      if (acks) {
        server.prependListener('connection', (socket) => acks.connection(socket));
        server.prependListener('request', (req, res) => acks.request(req, res));
      }
      return (server.address() as AddressInfo).port;
    },
    stop: () => http.stop(),
  };
}

function pathOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}
