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
import { acksTogether } from './runtime/acks-together.js';
import { boltLogger } from './runtime/bolt-logger.js';
import { eventsEndpoint } from './runtime/events-endpoint.js';
import { type AckFirst, ackThenChain, ChainsAfterReads } from './runtime/first-ack.js';
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
  /** Resolves when the Bolt chains of every request acked so far have run (they start after the acks). */
  chainsDone(): Promise<void>;
  /** Closes the listener (HTTP: requests still open finish first). */
  stop(): Promise<void>;
}

const EVENTS_PATH = '/slack/events';
/**
 * How long an acked request's chain waits at most for a burst's acks to be
 * done (AckWatch): steady traffic cannot hold chains longer, and a trigger id
 * (3 s) still has most of its time when the work behind the chain opens a view.
 */
const CHAIN_QUIET_MAX_MS = 250;

/** Where a Socket Mode envelope handed to Bolt carries its custom properties (the ack decided first). */
const PROPERTIES = Symbol('custom properties');

export interface ReceiverOptions {
  /** Counts requests until acked, so the work behind earlier acks waits for them. */
  acks?: AckWatch;
  /** Decides each request's ack from its body, sent before Bolt's chain runs (listeners/ack-first.ts). */
  ackFirst?: AckFirst;
  /** Also reach Socket Mode's own Web API client. */
  clientOptions?: WebClientOptions;
}

/** Builds the receiver the config asks for. */
export function createReceiver(
  slack: SlackConfig,
  routes: CustomRoute[],
  logger: Logger,
  { acks, ackFirst, clientOptions = {} }: ReceiverOptions = {},
): BotReceiver {
  const log = boltLogger(logger.child({ component: 'bolt' }));
  // Acked requests' chains start after the burst's acks (first-ack.ts), in either mode.
  const chains = new ChainsAfterReads(acks && (() => acks.quiet(CHAIN_QUIET_MAX_MS)));
  if (slack.mode === 'socket' && slack.appToken) {
    const together = acksTogether();
    const receiver = new SocketModeReceiver({
      appToken: slack.appToken,
      logger: log,
      // A chunk's acks leave in one write (acks-together.ts).
      dispatcher: together.dispatcher,
      customPropertiesExtractor: (args: { [PROPERTIES]?: Record<string, unknown> }) => args[PROPERTIES] ?? {},
      // No customRoutes: Bolt would serve them on every interface (routes-server.ts serves them instead).
      // Bolt hands installerOptions.clientOptions to the SocketModeClient, whose WebClient
      // calls apps.connections.open: without the API URL it would always go to slack.com.
      installerOptions: {
        clientOptions: { ...clientOptions, ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}) },
      },
    });
    guardEnvelopes(receiver.client, logger, chains, acks, ackFirst);
    let open = false;
    receiver.client.on('connected', () => {
      open = true;
    });
    receiver.client.on('disconnected', () => {
      open = false;
    });
    // The client gave a connection up: its socket goes too, even if the peer never closed it.
    receiver.client.on('close', () => together.closed());
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
      chainsDone: () => chains.idle(),
      stop: async () => {
        await receiver.stop();
        await together.close();
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
    ...(ackFirst ? { ackFirst, chains } : {}),
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
    chainsDone: () => chains.idle(),
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
  [PROPERTIES]?: Record<string, unknown>;
}

/**
 * Puts a check and the ack in front of Bolt's Socket Mode listener
 * (registered when the receiver was built). An envelope whose body fails the
 * HTTP path's shape check is acked (so Slack does not send it again) and
 * refused with the reason logged, before Bolt or any listener reads it. The
 * others are counted in the ack watch until acked, as HTTP requests are, so
 * work behind earlier acks waits for them; and with `ackFirst` each is acked
 * as decided from its body before Bolt's chain runs (first-ack.ts). The
 * client emits a socket's envelopes one after another in one turn, and each
 * ack is written before this listener first waits, so a burst's acks go out
 * in the order its envelopes came, none behind another's chain; the chains
 * then start one per turn of the loop (ChainsAfterReads), after the loop has
 * read the frames still waiting on the socket and the burst's acks are
 * done. Type-ahead
 * requests (answered in their ack, after a read) still ack from the chain.
 */
function guardEnvelopes(
  client: {
    listeners(event: string): unknown[];
    removeAllListeners(event: string): unknown;
    on(event: string, listener: (envelope: Envelope) => Promise<void>): unknown;
  },
  logger: Logger,
  chains: ChainsAfterReads,
  acks?: AckWatch,
  ackFirst?: AckFirst,
): void {
  const bolts = client.listeners('slack_event') as ((envelope: Envelope) => Promise<void>)[];
  client.removeAllListeners('slack_event');
  const chain = async (envelope: Envelope) => {
    for (const bolt of bolts) await bolt(envelope);
  };
  client.on('slack_event', async (envelope) => {
    const problem = envelopeProblem(envelope.type, envelope.body);
    if (problem) {
      logger.warn('refused a malformed Socket Mode envelope', { type: String(envelope.type), problem });
      await envelope.ack();
      return;
    }
    const done = acks?.envelope() ?? (() => {});
    const first = ackFirst?.(envelope.body as Record<string, unknown>);
    if (first) {
      try {
        await ackThenChain(
          first,
          async (body) => {
            try {
              await envelope.ack(body);
            } finally {
              done();
            }
          },
          (ack, properties) => chains.run(() => chain({ ...envelope, ack, [PROPERTIES]: properties })),
        );
      } catch (error) {
        // Mostly the ack's own send (Bolt reports its chain's errors itself): Slack sends the envelope again.
        logger.warn('could not ack or handle a Socket Mode envelope', { type: String(envelope.type), error });
      }
      return;
    }
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
      await chain(counted);
    } finally {
      done();
    }
  });
}
