/**
 * A local stand-in for the Slack Web API and for `response_url`s, on a real
 * HTTP server on 127.0.0.1. Point Bolt at it with
 * `clientOptions: { slackApiUrl: standIn.apiUrl }`; the bot then runs its real
 * WebClient code against it, and tests read back what the bot posted, wait
 * for calls the bot makes after acking, and provoke 429s.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CallLog, RESPONSE_URL_METHOD, type RecordedCall, type WaitOptions } from './call-log.js';
import { Directory, type DirectoryOptions } from './directory.js';
import { type Args, parseArgs, readBody, sendJson, tokenOf } from './http-body.js';
import { type EphemeralMessage, MessageStore, type StoredMessage } from './messages.js';
import { answerMethod, fail } from './methods.js';
import {
  type EnforcedLimits,
  type ForcedRateLimit,
  type RateLimitedCall,
  RateLimiter,
  type StandInClock,
} from './rate-limits.js';
import { type ResponseOrigin, type ResponsePost, ResponseUrls } from './response-urls.js';
import { type SocketModeStandIn, socketModeServer } from './socket-mode.js';
import { viewError } from './surface-checks.js';
import { type StoredView, ViewStore } from './views.js';

export type { RecordedCall, WaitOptions } from './call-log.js';
export { RESPONSE_URL_METHOD } from './call-log.js';
export type { EphemeralMessage, StoredMessage } from './messages.js';
export type { EnforcedLimits, ForcedRateLimit, RateLimitedCall, StandInClock } from './rate-limits.js';
export type { ResponseOrigin, ResponsePost } from './response-urls.js';
export type { DeliverOptions, EnvelopeAck, EnvelopeType, SocketModeStandIn } from './socket-mode.js';
export type { StoredView } from './views.js';

interface SlackStandInOptions extends DirectoryOptions {
  /** Time for ts values, trigger/response_url expiry and call records. Default: the system clock. */
  clock?: StandInClock;
  /** When set, API calls without this token fail `not_authed`, with another one `invalid_auth`. */
  token?: string;
}

export interface SlackStandIn {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `http://127.0.0.1:<port>/api/`, for WebClient's / Bolt's `slackApiUrl`. */
  readonly apiUrl: string;
  /** Every call answered, oldest first (Web API methods and `response_url` POSTs). */
  readonly calls: readonly RecordedCall[];
  /**
   * Socket Mode: apps that call `apps.connections.open` with an app-level
   * token connect here; tests deliver envelopes and read their acks.
   */
  readonly socketMode: SocketModeStandIn;
  /** Every 429 answered, oldest first. */
  readonly rateLimited: readonly RateLimitedCall[];
  /** User group membership; tests may change it between calls. */
  readonly usergroups: Map<string, string[]>;
  /** Channel names by id; tests may add channels. */
  readonly channels: Map<string, string>;
  /** Channel members by channel id (conversations.members); tests may change them between calls. */
  readonly members: Map<string, string[]>;
  /** Calls to one method, oldest first. */
  callsTo(method: string): RecordedCall[];
  /** Forgets recorded calls and 429s (messages, views and URLs stay). */
  clear(): void;
  /** Resolves with the first recorded call matching `predicate`, waiting for it if needed. */
  waitFor(predicate: (call: RecordedCall) => boolean, options?: WaitOptions): Promise<RecordedCall>;
  /** The latest version of a message (after updates; `deleted` set when deleted). */
  message(channel: string, ts: string): StoredMessage | undefined;
  /** Live replies in a thread, oldest first. */
  thread(channel: string, threadTs: string): StoredMessage[];
  /** Live messages in a channel (top level and replies), oldest first. */
  channelMessages(channel: string): StoredMessage[];
  /** Ephemeral messages sent (chat.postEphemeral and ephemeral responses), oldest first. */
  ephemerals(): EphemeralMessage[];
  /** The latest version of a view by id or external id. */
  view(idOrExternalId: string): StoredView | undefined;
  /** Every version of a view, oldest first. */
  viewHistory(viewId: string): StoredView[];
  /**
   * A trigger id valid for 3 s of the clock; pass the modal it came from so
   * views.push stacks on it, and the user who acted so the modal opens for them.
   */
  triggerId(viewId?: string, user?: string): string;
  /** Modals open in front of `user`, bottom of the stack first. */
  openViews(user: string): StoredView[];
  /** The Home tab the app last published for `user` (views.publish). */
  homeView(user: string): StoredView | undefined;
  /** Closes a modal (its person closed it or a submission did). */
  closeView(viewId: string): void;
  /** Posts a message as a person (what they type into the channel). */
  postAsUser(channel: string, user: string, text: string, threadTs?: string): StoredMessage;
  /** A fresh Slack timestamp on the stand-in's clock (for action_ts). */
  messageTs(): string;
  /** Tells change listeners something the page shows changed outside the Web API. */
  touch(): void;
  /** A submission's `response_action: update`: Slack's checks, then the view replaced. */
  updateView(viewId: string, view: unknown): StoredView | string;
  /** A submission's `response_action: push`: Slack's checks, then a view stacked on `parentId`. */
  pushView(parentId: string, user: string, view: unknown): StoredView | string;
  /** A slash command's ack text, which Slack shows the person as an ephemeral message. */
  ephemeralFromAck(channel: string, user: string, version: { text: string; blocks: unknown[] }): void;
  /** Calls `listener` after every change the stand-in answers or makes; returns an unsubscribe. */
  onChange(listener: () => void): () => void;
  /** A fresh `http://127.0.0.1:<port>/response/<id>` for an interaction about `origin`. */
  responseUrl(origin?: ResponseOrigin): string;
  /** Every POST to a response URL (by URL or id), accepted or not. */
  responses(urlOrId: string): ResponsePost[];
  /** Answers the next `count` calls to `method` with HTTP 503, as Slack does during an outage. */
  forceOutage(method: string, count: number): void;
  /** Answers the next `count` calls to `method` with HTTP 429 and Retry-After. */
  forceRateLimit(method: string, limit: ForcedRateLimit): void;
  /** Answers the next call to `method` with `{ ok: false, error }`, as Slack refuses (e.g. `invalid_blocks`). */
  refuseNext(method: string, error: string): void;
  /** Enforces Slack's budgets as sliding windows on a clock from now on. */
  enforceLimits(limits: EnforcedLimits): void;
  /** Stops enforcing budgets. */
  relaxLimits(): void;
  /** Closes the server (and open connections); pending waits reject. */
  stop(): Promise<void>;
}

const systemClock: StandInClock = { now: () => Date.now() };

/** Starts a stand-in on a free port of 127.0.0.1. */
export async function startSlackStandIn(options: SlackStandInOptions = {}): Promise<SlackStandIn> {
  const clock = options.clock ?? systemClock;
  const log = new CallLog();
  const messages = new MessageStore(clock);
  const views = new ViewStore(clock);
  const directory = new Directory(options);
  const limiter = new RateLimiter(clock);
  const responseUrls = new ResponseUrls(clock, messages);
  const ctx = { messages, views, directory };
  const outages = new Map<string, number>();
  const listeners = new Set<() => void>();
  const refusals = new Map<string, string>();
  // Its URLs need the port, known once the server listens (before any app can ask for one).
  let wsBase = '';
  const socketMode = socketModeServer(() => wsBase);
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };

  const answerApi = (req: IncomingMessage, res: ServerResponse, method: string, raw: string) => {
    const { token: _token, ...body } = parseArgs(raw, req.headers['content-type']);
    const token = tokenOf(req, { token: _token });
    const reply = (status: number, response: Record<string, unknown>, headers?: Record<string, string>) => {
      log.record({ method, body, ...(token ? { token } : {}), at: clock.now(), status, response });
      sendJson(res, status, response, headers);
      changed();
    };
    // Socket Mode's URL is asked for with the app-level token (xapp-), never the bot's.
    if (method === 'apps.connections.open') {
      if (!token) return reply(200, fail('not_authed'));
      if (!token.startsWith('xapp-')) return reply(200, fail('not_allowed_token_type'));
      return reply(200, { ok: true, url: socketMode.open(token) });
    }
    if (options.token !== undefined && token !== options.token) {
      return reply(200, fail(token ? 'invalid_auth' : 'not_authed'));
    }
    const down = outages.get(method) ?? 0;
    if (down > 0) {
      outages.set(method, down - 1);
      return reply(503, fail('service_unavailable'));
    }
    const refusal = refusals.get(method);
    if (refusal) {
      refusals.delete(method);
      return reply(200, fail(refusal));
    }
    const retryAfter = limiter.check(method, body);
    if (retryAfter !== undefined) {
      return reply(429, fail('ratelimited'), { 'retry-after': String(retryAfter) });
    }
    reply(200, answerMethod(method, body, ctx));
  };

  const answerResponseUrl = (req: IncomingMessage, res: ServerResponse, id: string, raw: string) => {
    const body = responseBody(raw, req.headers['content-type']);
    const answer = responseUrls.handle(id, body);
    log.record({
      method: RESPONSE_URL_METHOD,
      body,
      at: clock.now(),
      status: answer.status,
      response: answer.body,
      responseId: id,
    });
    sendJson(res, answer.status, answer.body);
    changed();
  };

  const server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      const raw = await readBody(req);
      if (req.method !== 'POST') return sendJson(res, 405, fail('method_not_allowed'));
      const api = /^\/api\/([\w.]+)$/.exec(path);
      if (api?.[1]) return answerApi(req, res, api[1], raw);
      const response = /^\/response\/(\w+)$/.exec(path);
      if (response?.[1]) return answerResponseUrl(req, res, response[1], raw);
      sendJson(res, 404, fail('not_found'));
    })().catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, fail('stand_in_error', [String(error)]));
    });
  });
  server.on('upgrade', (req, socket, head) => {
    if (!socketMode.upgrade(req, socket, head))
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  wsBase = `ws://127.0.0.1:${port}`;

  return {
    url,
    apiUrl: `${url}/api/`,
    calls: log.calls,
    socketMode,
    rateLimited: limiter.rateLimited,
    usergroups: directory.usergroups,
    channels: directory.channels,
    members: directory.members,
    callsTo: (method) => log.callsTo(method),
    clear: () => {
      log.clear();
      limiter.rateLimited.length = 0;
    },
    waitFor: (predicate, waitOptions) => log.waitFor(predicate, waitOptions),
    message: (channel, ts) => messages.get(channel, ts),
    thread: (channel, threadTs) => messages.thread(channel, threadTs),
    channelMessages: (channel) => messages.channel(channel),
    ephemerals: () => messages.ephemerals.filter((e) => !e.deleted),
    view: (id) => views.find({ viewId: id }) ?? views.find({ externalId: id }) ?? views.homeById(id),
    viewHistory: (viewId) => views.history(viewId),
    triggerId: (viewId, user) => views.issueTrigger(viewId, user),
    openViews: (user) => views.openFor(user),
    homeView: (user) => views.home(user),
    closeView: (viewId) => {
      views.close(viewId);
      changed();
    },
    messageTs: () => messages.nextTs(),
    touch: changed,
    updateView: (viewId, view) => {
      const problem = viewError(view);
      if (problem) return problem.error;
      const result = views.update({ viewId }, view as Record<string, unknown>);
      changed();
      return result;
    },
    pushView: (parentId, user, view) => {
      const problem = viewError(view);
      if (problem) return problem.error;
      const result = views.open(view as Record<string, unknown>, views.find({ viewId: parentId }));
      if (typeof result !== 'string') views.setOwner(result.id, user);
      changed();
      return result;
    },
    ephemeralFromAck: (channel, user, version) => {
      messages.postEphemeral(channel, user, version);
      changed();
    },
    postAsUser: (channel, user, text, threadTs) => {
      const posted = messages.post(channel, user, { text, blocks: [] }, threadTs);
      changed();
      return posted;
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    responseUrl: (origin) => `${url}/response/${responseUrls.create(origin)}`,
    responses: (urlOrId) => responseUrls.posts(urlOrId.slice(urlOrId.lastIndexOf('/') + 1)),
    forceOutage: (method, count) => outages.set(method, count),
    forceRateLimit: (method, limit) => limiter.force(method, limit),
    refuseNext: (method, error) => {
      refusals.set(method, error);
    },
    enforceLimits: (limits) => limiter.enforce(limits),
    relaxLimits: () => limiter.relax(),
    stop: async () => {
      listeners.clear();
      log.rejectWaiters('The Slack stand-in stopped');
      // Upgraded sockets are no longer the HTTP server's: closeAllConnections would not reach them.
      socketMode.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

// Response URLs take JSON (what Bolt's respond() sends) or a form with a JSON `payload`.
function responseBody(raw: string, contentType: string | undefined): Args {
  const args = parseArgs(raw, contentType);
  return typeof args.payload === 'string' ? parseArgs(args.payload, 'application/json') : args;
}
