/**
 * `response_url` endpoints with Slack's rules: five uses within thirty
 * minutes, ephemeral unless `response_type: in_channel`, `replace_original`
 * edits the message that carried the button, `delete_original` removes it
 * and must come alone. Stricter than Slack where Slack is vague, so a bot
 * that leans on undocumented leniency fails here first.
 */
import type { Args } from './http-body.js';
import { bool, str } from './http-body.js';
import { TEST_BOT } from './identity.js';
import type { EphemeralMessage, MessageStore } from './messages.js';
import type { StandInClock } from './rate-limits.js';
import { messageError } from './surface-checks.js';

export const RESPONSE_URL_MAX_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60_000;

/** What the interaction that produced the URL was about. */
export interface ResponseOrigin {
  /** Channel the command was typed in / the button's message lives in. */
  channel?: string;
  /** The message carrying the button (target of replace_original/delete_original). */
  messageTs?: string;
  /** The user who acted (receives ephemeral responses). */
  user?: string;
  /** Thread of the original message, for in_channel responses. */
  threadTs?: string;
  /** The message carrying the button is ephemeral: replace/delete act on it. */
  ephemeral?: boolean;
}

type ResponseEffect = 'ephemeral' | 'in_channel' | 'replaced' | 'deleted' | 'rejected';

export interface ResponsePost {
  id: string;
  at: number;
  body: Args;
  status: number;
  effect: ResponseEffect;
  /** Error code when rejected. */
  error?: string;
  /** ts of the message an in_channel response posted. */
  ts?: string;
}

interface Endpoint {
  origin: ResponseOrigin;
  /** The last ephemeral this URL posted: a slash command's replace/delete_original acts on it. */
  ephemeral?: EphemeralMessage;
  createdAt: number;
  posts: ResponsePost[];
}

interface ResponseAnswer {
  status: number;
  body: Record<string, unknown>;
  post?: ResponsePost;
}

/** The response URLs handed out and every POST each received. */
export class ResponseUrls {
  private endpoints = new Map<string, Endpoint>();
  private counter = 0;

  constructor(
    private readonly clock: StandInClock,
    private readonly messages: MessageStore,
  ) {}

  /** Registers a fresh endpoint and returns its id. */
  create(origin: ResponseOrigin = {}): string {
    this.counter += 1;
    const id = `R${String(this.counter).padStart(6, '0')}`;
    this.endpoints.set(id, { origin, createdAt: this.clock.now(), posts: [] });
    return id;
  }

  /** Every POST an endpoint received (accepted or not), oldest first. */
  posts(id: string): ResponsePost[] {
    return [...(this.endpoints.get(id)?.posts ?? [])];
  }

  /** Applies one POST to `/response/<id>`. */
  handle(id: string, body: Args): ResponseAnswer {
    const endpoint = this.endpoints.get(id);
    if (!endpoint) return { status: 404, body: { ok: false, error: 'no_such_url' } };
    const at = this.clock.now();
    const reject = (status: number, error: string): ResponseAnswer => {
      const post: ResponsePost = { id, at, body, status, effect: 'rejected', error };
      endpoint.posts.push(post);
      return { status, body: { ok: false, error }, post };
    };
    if (at - endpoint.createdAt > RESPONSE_URL_TTL_MS) return reject(404, 'expired_url');
    if (endpoint.posts.length >= RESPONSE_URL_MAX_USES) return reject(404, 'used_url');
    const outcome = this.apply(endpoint, body);
    if ('error' in outcome) return reject(outcome.status, outcome.error);
    const post: ResponsePost = { id, at, body, status: 200, ...outcome };
    endpoint.posts.push(post);
    return { status: 200, body: { ok: true }, post };
  }

  private apply(
    endpoint: Endpoint,
    body: Args,
  ): { effect: ResponseEffect; ts?: string } | { status: number; error: string } {
    const origin = endpoint.origin;
    const hasContent = body.text !== undefined || body.blocks !== undefined || body.attachments !== undefined;
    if (bool(body, 'delete_original')) {
      if (hasContent) return { status: 400, error: 'delete_original_must_be_alone' };
      if (origin.ephemeral && origin.messageTs) this.messages.deleteEphemeral(origin.messageTs);
      else if (origin.channel && origin.messageTs) this.messages.delete(origin.channel, origin.messageTs);
      else if (endpoint.ephemeral) this.messages.removeEphemeral(endpoint.ephemeral);
      return { effect: 'deleted' };
    }
    const problem = messageError(body);
    if (problem) return { status: 400, error: problem.error };
    const version = {
      text: str(body, 'text') ?? '',
      blocks: Array.isArray(body.blocks) ? body.blocks : [],
      ...(body.attachments !== undefined ? { attachments: body.attachments } : {}),
    };
    if (bool(body, 'replace_original')) {
      // A replacement is a whole new message: blocks left out are gone, unlike chat.update.
      // From a slash command (no message of its own) it replaces what this URL posted last, as on Slack.
      if (origin.ephemeral && origin.messageTs) this.messages.replaceEphemeral(origin.messageTs, version);
      else if (origin.channel && origin.messageTs)
        this.messages.update(origin.channel, origin.messageTs, version);
      else if (endpoint.ephemeral)
        endpoint.ephemeral = this.messages.replaceEphemeral(endpoint.ephemeral.messageTs, version);
      return { effect: 'replaced' };
    }
    const threadTs = str(body, 'thread_ts') ?? origin.threadTs;
    if (str(body, 'response_type') === 'in_channel') {
      if (!origin.channel) return { status: 404, error: 'channel_not_found' };
      const posted = this.messages.post(origin.channel, TEST_BOT.userId, version, threadTs);
      return { effect: 'in_channel', ts: posted.ts };
    }
    endpoint.ephemeral = this.messages.postEphemeral(
      origin.channel ?? '',
      origin.user ?? '',
      version,
      threadTs,
    );
    return { effect: 'ephemeral' };
  }
}
