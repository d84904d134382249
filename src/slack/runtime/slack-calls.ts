/**
 * The Web API methods the bot calls, as the gateway offers them to one
 * purpose (slack/gateway/gateway.ts `calls`): shaped as the SDK's, so call sites read as
 * before, but each call is ordered and paced by the gateway first.
 */
import type { WebClient } from '@slack/web-api';

export interface SlackCalls {
  chat: Pick<WebClient['chat'], 'postMessage' | 'update' | 'postEphemeral'>;
  views: Pick<WebClient['views'], 'open' | 'update' | 'push' | 'publish'>;
  conversations: Pick<WebClient['conversations'], 'members' | 'info'>;
  usergroups: { users: Pick<WebClient['usergroups']['users'], 'list'> };
  auth: Pick<WebClient['auth'], 'test'>;
}

/** Builds SlackCalls over `call` (the gateway's, bound to one purpose). */
export function slackCalls(
  call: (method: string, args: Record<string, unknown>) => Promise<unknown>,
): SlackCalls {
  // The SDK's method types are overloads over each method's arguments and answer; the gateway sends
  // the arguments as given and answers Slack's response, which is what those types describe.
  const m = (method: string) => ((args?: Record<string, unknown>) => call(method, args ?? {})) as never;
  return {
    chat: {
      postMessage: m('chat.postMessage'),
      update: m('chat.update'),
      postEphemeral: m('chat.postEphemeral'),
    },
    views: {
      open: m('views.open'),
      update: m('views.update'),
      push: m('views.push'),
      publish: m('views.publish'),
    },
    conversations: { members: m('conversations.members'), info: m('conversations.info') },
    usergroups: { users: { list: m('usergroups.users.list') } },
    auth: { test: m('auth.test') },
  };
}
