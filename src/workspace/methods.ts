/**
 * The Web API methods the bot calls, answered from the stand-in's state with
 * Slack's response shapes and error codes. Each handler returns the JSON
 * body; Slack answers these with HTTP 200 whether `ok` is true or not.
 */
import type { Directory } from './directory.js';
import type { Args } from './http-body.js';
import { str } from './http-body.js';
import { TEST_BOT, TEST_TEAM } from './identity.js';
import { field } from './json.js';
import type { MessageStore, MessageVersion, StoredMessage } from './messages.js';
import { messageError, type SurfaceError, viewError } from './surface-checks.js';
import type { StoredView, ViewStore } from './views.js';

interface MethodContext {
  messages: MessageStore;
  views: ViewStore;
  directory: Directory;
}

export type Answer = Record<string, unknown>;
type Handler = (args: Args, ctx: MethodContext) => Answer;

/** The Enterprise Grid org of the stand-in's org-wide install mode. */
const TEST_ENTERPRISE_ID = 'E0ORG';

/** `{ ok: false, error }`, with Slack's `response_metadata.messages` when there are details. */
export function fail(error: string, messages: string[] = []): Answer {
  return { ok: false, error, ...(messages.length ? { response_metadata: { messages } } : {}) };
}

function failSurface(problem: SurfaceError): Answer {
  return fail(problem.error, problem.messages);
}

/** The message object Slack echoes back from chat.postMessage/chat.update. */
function messageJson(m: StoredMessage): Answer {
  return {
    type: 'message',
    user: m.user,
    bot_id: TEST_BOT.botId,
    app_id: TEST_BOT.appId,
    team: TEST_TEAM.id,
    text: m.text,
    blocks: m.blocks,
    ts: m.ts,
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    ...(m.attachments !== undefined ? { attachments: m.attachments } : {}),
    ...(m.metadata !== undefined ? { metadata: m.metadata } : {}),
    ...(m.history.length ? { edited: { user: m.user, ts: m.ts } } : {}),
  };
}

/** The content fields of a message request; absent ones stay undefined (chat.update keeps them). */
function versionOf(args: Args): Partial<MessageVersion> {
  return {
    ...(typeof args.text === 'string' ? { text: args.text } : {}),
    ...(Array.isArray(args.blocks) ? { blocks: args.blocks } : {}),
    ...(args.attachments !== undefined ? { attachments: args.attachments } : {}),
    ...(args.metadata !== undefined ? { metadata: args.metadata } : {}),
  };
}

function viewAnswer(result: StoredView | string): Answer {
  return typeof result === 'string' ? fail(result) : { ok: true, view: result };
}

// A modal opens in front of the person whose interaction carried the trigger.
function owned(views: ViewStore, triggerId: string | undefined, result: StoredView | string) {
  const user = triggerId ? views.triggerUser(triggerId) : undefined;
  if (typeof result !== 'string' && user) views.setOwner(result.id, user);
  return result;
}

const handlers: Record<string, Handler> = {
  'auth.test': (_args, { directory }) => ({
    ok: true,
    url: `https://${TEST_TEAM.domain}.slack.com/`,
    team: TEST_TEAM.name,
    user: TEST_BOT.name,
    team_id: TEST_TEAM.id,
    user_id: TEST_BOT.userId,
    bot_id: TEST_BOT.botId,
    is_enterprise_install: directory.enterpriseInstall,
    ...(directory.enterpriseInstall ? { enterprise_id: TEST_ENTERPRISE_ID } : {}),
  }),

  'chat.postMessage': (args, { messages }) => {
    const channel = str(args, 'channel');
    if (!channel) return fail('channel_not_found');
    const problem = messageError(args);
    if (problem) return failSurface(problem);
    const version = { text: '', blocks: [], ...versionOf(args) };
    const posted = messages.post(channel, TEST_BOT.userId, version, str(args, 'thread_ts'));
    return { ok: true, channel, ts: posted.ts, message: messageJson(posted) };
  },

  'chat.update': (args, { messages }) => {
    const channel = str(args, 'channel');
    const ts = str(args, 'ts');
    if (!channel) return fail('channel_not_found');
    if (!ts) return fail('message_not_found');
    const problem = messageError(args);
    if (problem) return failSurface(problem);
    const updated = messages.update(channel, ts, versionOf(args));
    if (!updated) return fail('message_not_found');
    return { ok: true, channel, ts, text: updated.text, message: messageJson(updated) };
  },

  'chat.postEphemeral': (args, { messages }) => {
    const channel = str(args, 'channel');
    const user = str(args, 'user');
    if (!channel) return fail('channel_not_found');
    if (!user) return fail('user_not_in_channel');
    const problem = messageError(args);
    if (problem) return failSurface(problem);
    const version = { text: '', blocks: [], ...versionOf(args) };
    const sent = messages.postEphemeral(channel, user, version, str(args, 'thread_ts'));
    return { ok: true, message_ts: sent.messageTs };
  },

  'chat.delete': (args, { messages }) => {
    const channel = str(args, 'channel');
    const ts = str(args, 'ts');
    if (!channel || !ts || !messages.delete(channel, ts)) return fail('message_not_found');
    return { ok: true, channel, ts };
  },

  'views.open': (args, { views }) => {
    const problem = viewError(args.view);
    if (problem) return failSurface(problem);
    const triggerId = str(args, 'trigger_id');
    const triggerError = views.useTrigger(triggerId);
    if (triggerError) return fail(triggerError);
    return viewAnswer(owned(views, triggerId, views.open(args.view as Record<string, unknown>)));
  },

  'views.push': (args, { views }) => {
    const problem = viewError(args.view);
    if (problem) return failSurface(problem);
    const triggerId = str(args, 'trigger_id');
    const triggerError = views.useTrigger(triggerId);
    if (triggerError) return fail(triggerError);
    const parent = triggerId ? views.triggerView(triggerId) : undefined;
    return viewAnswer(owned(views, triggerId, views.open(args.view as Record<string, unknown>, parent)));
  },

  'views.update': (args, { views }) => {
    const viewId = str(args, 'view_id');
    const externalId = str(args, 'external_id');
    if (!viewId && !externalId)
      return fail('invalid_arguments', ['[ERROR] view_id or external_id is required']);
    const problem = viewError(args.view);
    if (problem) return failSurface(problem);
    const ref = { ...(viewId ? { viewId } : {}), ...(externalId ? { externalId } : {}) };
    return viewAnswer(views.update(ref, args.view as Record<string, unknown>, str(args, 'hash')));
  },

  'views.publish': (args, { views, directory }) => {
    const user = str(args, 'user_id');
    if (!user) return fail('invalid_arguments', ['[ERROR] missing required field: user_id']);
    if (!directory.user(user)) return fail('user_not_found');
    const problem = viewError(args.view);
    if (problem) return failSurface(problem);
    if (field(args.view, 'type') !== 'home')
      return fail('invalid_arguments', ['[ERROR] must be home [json-pointer:/view/type]']);
    return viewAnswer(views.publish(user, args.view as Record<string, unknown>, str(args, 'hash')));
  },

  'usergroups.users.list': (args, { directory }) => {
    // An org token does not know which workspace to look in unless told.
    if (directory.enterpriseInstall && !str(args, 'team_id'))
      return fail('missing_argument', ['[ERROR] missing required field: team_id']);
    const users = directory.usergroups.get(str(args, 'usergroup') ?? '');
    return users ? { ok: true, users: [...users] } : fail('no_such_subteam');
  },

  'users.info': (args, { directory }) => {
    const user = directory.user(str(args, 'user') ?? '');
    return user ? { ok: true, user } : fail('user_not_found');
  },

  'conversations.info': (args, { directory }) => {
    const channel = directory.channel(str(args, 'channel') ?? '');
    return channel ? { ok: true, channel } : fail('channel_not_found');
  },

  'conversations.members': (args, { directory }) => {
    const id = str(args, 'channel') ?? '';
    if (!directory.channel(id)) return fail('channel_not_found');
    // One page: the stand-in's channels are small.
    return {
      ok: true,
      members: [...(directory.members.get(id) ?? [])],
      response_metadata: { next_cursor: '' },
    };
  },
};

/** The methods the stand-in answers. */
/** Answers one Web API call; unknown methods get `unknown_method` like Slack. */
export function answerMethod(method: string, args: Args, ctx: MethodContext): Answer {
  const handler = handlers[method];
  return handler ? handler(args, ctx) : { ...fail('unknown_method'), req_method: method };
}
