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
  slashCommandFields,
  viewSubmissionPayload,
} from '../../src/workspace/signing.js';
import { type EnvelopeType, RESPONSE_URL_METHOD, startSlackStandIn } from '../../src/workspace/stand-in.js';
import { ALICE, BOB, SRE_GROUP } from '../../test/e2e/slack/bot-harness.js';
import { answers } from '../../test/e2e/slack/harness-extras.js';
import { collectGarbage, gcPausesSinceLast } from './gc-pauses.js';
import { serve } from './ipc.js';

const data = demoData();
data.branches.staging = [];
const sim = await startSimulator({ port: 0, stepMs: 5, data });
const slack = await startSlackStandIn({ token: TEST_BOT.token, usergroups: { [SRE_GROUP]: [BOB.id] } });

/** How a request goes to the app: a signed HTTP body, or a Socket Mode envelope's type and payload. */
type Form = 'body' | 'envelope';
/** A request in either form (bodies are strings; envelopes go back to `socketBurst` as they are). */
type Request = string | Envelope;
interface Envelope {
  type: EnvelopeType;
  payload: unknown;
}

const commandFields = (text: string) =>
  slashCommandFields({
    text,
    user_id: ALICE.id,
    user_name: ALICE.name,
    response_url: slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id }),
    trigger_id: slack.triggerId(),
  });

const command = (text: string, form: Form): Request => {
  const fields = commandFields(text);
  return form === 'body' ? slashCommandBody(fields) : { type: 'slash_commands', payload: fields };
};

const interaction = (payload: object, form: Form): Request =>
  form === 'body' ? interactionBody(payload) : { type: 'interactive', payload };

/** Whatever did not come back within this long counts as failed (so a lost ack cannot hang the run). */
const ACK_WAIT_MS = 10_000;

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

/** How many of the modals the bot opened have been handed out for submissions. */
let modalsUsed = 0;

serve({
  urls: () => ({ slackApiUrl: slack.apiUrl, simUrl: sim.url, simToken: sim.token }),
  latency: (ms: number) => sim.setFaults(ms > 0 ? [{ path: '/api/**', latencyMs: ms }] : []),
  commands: ({ texts, n, form = 'body' }: { texts: string[]; n: number; form?: Form }) =>
    Array.from({ length: n }, (_, i) => command(texts[i % texts.length] ?? '', form)),
  clicks: ({ action, n, form = 'body' }: { action: keyof typeof CHANGE_ACTIONS; n: number; form?: Form }) => {
    const message = latestPreview();
    const user = action === 'approve' ? BOB : ALICE;
    return Array.from({ length: n }, () =>
      interaction(
        blockActionsPayload({
          actionId: CHANGE_ACTIONS[action],
          user,
          channel: TEST_CHANNEL,
          message,
          responseUrl: slack.responseUrl({ channel: TEST_CHANNEL.id, user: user.id, messageTs: message.ts }),
          triggerId: slack.triggerId(),
        }),
        form,
      ),
    );
  },
  /**
   * `n` submissions with `given` answers, each of its own modal: the next `n` the bot opened and
   * has not had submitted yet, as the stand-in holds each now (filled in, with its latest hash).
   * One modal per submission, as when that many people submit their forms at once: a second
   * submission of one form would carry a hash the first one's redraw made stale, and be refused.
   */
  submissions: ({ given, n, form = 'body' }: { given: Record<string, string>; n: number; form?: Form }) => {
    const opened = slack
      .callsTo('views.open')
      .map((c) => (c.response.view as { id?: string } | undefined)?.id)
      .filter((id): id is string => id !== undefined);
    const ids = opened.slice(modalsUsed, modalsUsed + n);
    if (ids.length < n)
      throw new Error(`the bot opened ${opened.length - modalsUsed} unused modals, not ${n}`);
    modalsUsed += n;
    return ids.map((id) => {
      const view = slack.view(id);
      if (!view) throw new Error(`no view ${id}`);
      return interaction(
        viewSubmissionPayload({ view, values: answers(view, given) as never, user: ALICE }),
        form,
      );
    });
  },
  /**
   * Socket Mode: sends every envelope at once (each connection's share in one write) and times each
   * from that write to its ack's arrival (what Slack waits for). Sent one by one, the burst's first
   * envelopes were timed from before the stand-in built and sent the rest, and their acks waited for
   * it to be free to read them: the figure was the stand-in's, whatever the app did. Failures are by reason.
   */
  socketBurst: async ({ appToken, envelopes }: { appToken: string; envelopes: Envelope[] }) => {
    const failures: Record<string, number> = {};
    const fail = (reason: string) => {
      failures[reason] = (failures[reason] ?? 0) + 1;
    };
    let giveUp: NodeJS.Timeout | undefined;
    const late = new Promise<number>((resolve) => {
      giveUp = setTimeout(() => resolve(ACK_WAIT_MS), ACK_WAIT_MS);
    });
    const timed = slack.socketMode.deliverAll(envelopes, { appToken }).map((delivered) => {
      let acked = false;
      return Promise.race([
        delivered.then(
          (ack) => {
            acked = true;
            return ack.latencyMs;
          },
          (err: unknown) => {
            acked = true;
            fail(err instanceof Error ? err.message : String(err));
            return Number.NaN;
          },
        ),
        late.then((ms) => {
          if (!acked) fail(`no ack within ${ACK_WAIT_MS} ms`);
          return ms;
        }),
      ]);
    });
    const latenciesMs = await Promise.all(timed);
    clearTimeout(giveUp);
    return { latenciesMs: latenciesMs.filter((ms) => !Number.isNaN(ms)).sort((a, b) => a - b), failures };
  },
  /** Before a measured burst: a full collection, and the pauses since forgotten (the next read is the burst's). */
  collect: () => collectGarbage(),
  /** GC pauses since the last call. */
  gcPauses: () => gcPausesSinceLast(),
  /** Resolves once `count` Socket Mode connections of this app are open. */
  socketConnections: ({ appToken, count }: { appToken: string; count: number }) =>
    slack.socketMode.waitForConnections(count, appToken),
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
