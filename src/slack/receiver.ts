/**
 * The transport seam: Socket Mode when an app-level token is configured (no
 * public URL needed), HTTP otherwise (`/slack/events` for commands,
 * interactivity and events, signature-checked). Receivers only turn bytes into
 * events; both serve the probes and /metrics on PORT unless HARBOR_METRICS_PORT
 * gives them their own.
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
import { OpenRequests } from './runtime/open-requests.js';
import { envelopeProblem } from './runtime/payload-shape.js';
import { configuredOrigins } from './runtime/response-url.js';
import { type RoutesServer, startRoutesServer } from './runtime/routes-server.js';

export interface BotReceiver {
  receiver: Receiver;
  mode: 'http' | 'socket';
  /** Socket Mode: whether the socket is open. HTTP: always true (Slack calls us). */
  socketOpen(): boolean;
  /** Starts listening; returns the bound HTTP port (useful with PORT=0). */
  start(): Promise<number | undefined>;
  /** Resolves when every HTTP request accepted so far has been answered (Socket Mode: at once). */
  requestsDone(): Promise<void>;
  /** Closes the listener (HTTP: requests still open finish first). */
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
      // No customRoutes: Bolt would serve them on every interface (routes-server.ts serves them instead).
      // Bolt hands installerOptions.clientOptions to the SocketModeClient, whose WebClient
      // calls apps.connections.open: without the API URL it would always go to slack.com.
      installerOptions: {
        clientOptions: { ...clientOptions, ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}) },
      },
    });
    guardEnvelopes(receiver.client, logger, acks);
    let open = false;
    receiver.client.on('connected', () => {
      open = true;
    });
    receiver.client.on('disconnected', () => {
      open = false;
    });
    let server: RoutesServer | undefined;
    return {
      receiver,
      mode: 'socket',
      socketOpen: () => open,
      start: async () => {
        if (routes.length > 0) server = await startRoutesServer(routes, slack.port, slack.host);
        await receiver.start();
        return server?.port ?? slack.port;
      },
      requestsDone: async () => {},
      stop: async () => {
        await receiver.stop();
        await server?.close();
        server = undefined;
      },
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
    responseOrigins: configuredOrigins(slack.apiUrl),
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
  const open = new OpenRequests();
  return {
    receiver,
    mode: 'http',
    socketOpen: () => true,
    start: async () => {
      // Local mode binds to one interface (127.0.0.1) so nothing on the network reaches it.
      const listen = slack.host ? { port: slack.port, host: slack.host } : slack.port;
      const server = (await http.start(listen)) as Server;
      open.track(server);
      // Counted before Bolt sees the request, so work behind earlier acks waits for this one's ack.
      if (acks) {
        server.prependListener('connection', (socket) => acks.connection(socket));
        server.prependListener('request', (req, res) => acks.request(req, res));
      }
      return (server.address() as AddressInfo).port;
    },
    requestsDone: () => open.idle(),
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

/** What the Socket Mode client hands its `slack_event` listeners. */
interface Envelope {
  type?: unknown;
  body?: unknown;
  ack(payload?: unknown): Promise<void>;
}

/**
 * Puts a check in front of Bolt's Socket Mode listener (registered when the
 * receiver was built): an envelope whose body fails the HTTP path's shape
 * check is acked (so Slack does not send it again) and refused with the
 * reason logged, before Bolt or any listener reads it; the others are
 * counted in the ack watch until acked, as HTTP requests are, so work
 * behind earlier acks waits for them.
 */
function guardEnvelopes(
  client: {
    listeners(event: string): unknown[];
    removeAllListeners(event: string): unknown;
    on(event: string, listener: (envelope: Envelope) => Promise<void>): unknown;
  },
  logger: Logger,
  acks?: AckWatch,
): void {
  const bolts = client.listeners('slack_event') as ((envelope: Envelope) => Promise<void>)[];
  client.removeAllListeners('slack_event');
  client.on('slack_event', async (envelope) => {
    const problem = envelopeProblem(envelope.type, envelope.body);
    if (problem) {
      logger.warn('refused a malformed Socket Mode envelope', { type: String(envelope.type), problem });
      await envelope.ack();
      return;
    }
    const done = acks?.envelope() ?? (() => {});
    const counted: Envelope = {
      ...envelope,
      ack: async (payload) => {
        try {
          await envelope.ack(payload);
        } finally {
          done();
        }
      },
    };
    try {
      for (const bolt of bolts) await bolt(counted);
    } finally {
      done();
    }
  });
}
