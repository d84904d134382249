/**
 * The benchmark's outside world, in a process of its own: the hosting API
 * (the project's simulator, answering /api/** late once told to) and Slack
 * (the stand-in: Web API, response URLs, trigger ids and views). It also
 * writes the requests Slack would send, since response URLs, trigger ids and
 * views are its own; the parent signs and sends them.
 */
import { demoData, startSimulator } from '../../src/simulator/index.js';
import { CHANGE_ACTIONS } from '../../src/slack/ids.js';
import { TEST_BOT, TEST_CHANNEL } from '../../src/workspace/identity.js';
import {
  blockActionsPayload,
  interactionBody,
  slashCommandBody,
  viewSubmissionPayload,
} from '../../src/workspace/signing.js';
import { RESPONSE_URL_METHOD, type StoredView, startSlackStandIn } from '../../src/workspace/stand-in.js';
import { ALICE, BOB, SRE_GROUP } from '../../test/e2e/slack/bot-harness.js';
import { answers } from '../../test/e2e/slack/harness-extras.js';
import { serve } from './ipc.js';

const data = demoData();
data.branches.staging = [];
const sim = await startSimulator({ port: 0, stepMs: 5, data });
const slack = await startSlackStandIn({ token: TEST_BOT.token, usergroups: { [SRE_GROUP]: [BOB.id] } });

const commandBody = (text: string) =>
  slashCommandBody({
    text,
    user_id: ALICE.id,
    user_name: ALICE.name,
    response_url: slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id }),
    trigger_id: slack.triggerId(),
  });

/** The newest message in the channel carrying a Confirm or Approve button: a pending change's preview. */
function latestPreview() {
  const preview = slack
    .channelMessages(TEST_CHANNEL.id)
    .filter((m) => {
      const json = JSON.stringify(m.blocks);
      return json.includes(CHANGE_ACTIONS.confirm) || json.includes(CHANGE_ACTIONS.approve);
    })
    .at(-1);
  if (!preview) throw new Error('the bot posted no change preview with a Confirm button');
  return preview;
}

let form: StoredView | undefined;

serve({
  urls: () => ({ slackApiUrl: slack.apiUrl, simUrl: sim.url, simToken: sim.token }),
  latency: (ms: number) => sim.setFaults(ms > 0 ? [{ path: '/api/**', latencyMs: ms }] : []),
  commands: ({ texts, n }: { texts: string[]; n: number }) =>
    Array.from({ length: n }, (_, i) => commandBody(texts[i % texts.length] ?? '')),
  clicks: ({ action, n }: { action: keyof typeof CHANGE_ACTIONS; n: number }) => {
    const message = latestPreview();
    const user = action === 'approve' ? BOB : ALICE;
    return Array.from({ length: n }, () =>
      interactionBody(
        blockActionsPayload({
          actionId: CHANGE_ACTIONS[action],
          user,
          channel: TEST_CHANNEL,
          message,
          responseUrl: slack.responseUrl({ channel: TEST_CHANNEL.id, user: user.id, messageTs: message.ts }),
          triggerId: slack.triggerId(),
        }),
      ),
    );
  },
  /** `n` submissions of the form the bot opened last, as loaded (later submissions redraw it), with `given` answers. */
  submissions: ({ given, n }: { given: Record<string, string>; n: number }) => {
    if (!form) {
      const opened = slack.callsTo('views.open').at(-1)?.response.view as { id?: string } | undefined;
      form = opened?.id ? slack.view(opened.id) : undefined;
    }
    const view = form;
    if (!view) throw new Error('the bot opened no modal');
    return Array.from({ length: n }, () =>
      interactionBody(viewSubmissionPayload({ view, values: answers(view, given) as never, user: ALICE })),
    );
  },
  /** What Slack and the hosting API saw; rejected response_url posts and failed Web API calls are errors. */
  stats: () => {
    const failed = slack.calls.filter(
      (c) =>
        c.status !== 200 ||
        (c.method !== RESPONSE_URL_METHOD && (c.response as { ok?: boolean }).ok === false),
    );
    return {
      apiCalls: sim.requests.length,
      promotions: sim.countRequests('POST', '/api/container/v1/imagepromotions'),
      posts: slack.callsTo('chat.postMessage').length,
      responses: slack.callsTo(RESPONSE_URL_METHOD).length,
      viewUpdates: slack.callsTo('views.update').length,
      failedSlackCalls: failed.map(
        (c) => `${c.method}: ${c.status} ${JSON.stringify(c.response).slice(0, 120)}`,
      ),
    };
  },
  stop: async () => {
    await slack.stop();
    await sim.stop();
  },
});
