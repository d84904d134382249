import { createHmac } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { App, type BlockButtonAction, verifySlackRequest } from '@slack/bolt';
import { TEST_BOT, TEST_USER } from '../../src/workspace/identity.js';
import {
  blockActionsPayload,
  interactionBody,
  nowSeconds,
  postSigned,
  signature,
  signedHeaders,
  slashCommandBody,
  staticSelect,
  storedView,
  textInput,
  viewSubmissionPayload,
} from '../../src/workspace/signing.js';
import { RESPONSE_URL_METHOD, type SlackStandIn, startSlackStandIn } from '../../src/workspace/stand-in.js';
import { recordingLogger } from '../support/slack/recording-logger.js';

const SECRET = 'harbor-signing-secret';

describe('signature', () => {
  it("matches Slack's documented example", () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V' +
      '&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=' +
      '&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN' +
      '&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(signature('8f742231b10e8888abcd99yyyzzz85a5', 1531420618, body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('is v0= plus the hex HMAC-SHA256 of v0:{ts}:{body}', () => {
    const body = slashCommandBody({ text: 'images main' });
    const expected = createHmac('sha256', SECRET).update(`v0:1700000000:${body}`).digest('hex');
    expect(signature(SECRET, 1700000000, body)).toBe(`v0=${expected}`);
  });

  it("passes Bolt's verifySlackRequest, and a forged or stale one does not", () => {
    const body = slashCommandBody();
    const ts = nowSeconds();
    const headers = signedHeaders(SECRET, body, ts);
    const verify = (signatureHeader: string, timestamp: number) =>
      verifySlackRequest({
        signingSecret: SECRET,
        body,
        headers: { 'x-slack-signature': signatureHeader, 'x-slack-request-timestamp': timestamp },
        nowMilliseconds: ts * 1000,
      });
    expect(() => verify(headers['x-slack-signature'] as string, ts)).not.toThrow();
    expect(() => verify(signature('other-secret', ts, body), ts)).toThrow(/signature mismatch/);
    expect(() => verify(signature(SECRET, ts - 301, body), ts - 301)).toThrow(/stale/);
  });
});

describe('payload builders', () => {
  it('form-encodes a slash command with every field Slack sends; callers override any', () => {
    const fields = Object.fromEntries(new URLSearchParams(slashCommandBody({ text: 'vessels prod eu' })));
    expect(Object.keys(fields)).toEqual([
      'token',
      'team_id',
      'team_domain',
      'channel_id',
      'channel_name',
      'user_id',
      'user_name',
      'command',
      'text',
      'api_app_id',
      'is_enterprise_install',
      'response_url',
      'trigger_id',
    ]);
    expect(fields).toMatchObject({ command: '/harbor', text: 'vessels prod eu', user_id: TEST_USER.id });
  });

  it('builds a click inside a modal with the view, its full state and the picked option', () => {
    const blocks = [
      {
        type: 'input',
        block_id: 'branch',
        dispatch_action: true,
        label: { type: 'plain_text', text: 'Branch' },
        element: { type: 'static_select', action_id: 'modal.reload', options: [] },
      },
      {
        type: 'input',
        block_id: 'image',
        label: { type: 'plain_text', text: 'Image' },
        element: { type: 'plain_text_input', action_id: 'value', initial_value: 'game:1' },
      },
    ];
    const view = storedView({ id: 'V0PROMOTE', blocks });
    const payload = blockActionsPayload({
      actionId: 'modal.reload',
      view,
      values: { branch: { 'modal.reload': staticSelect('main') } },
    });
    expect(payload.container).toEqual({ type: 'view', view_id: 'V0PROMOTE' });
    expect(payload.channel).toBeUndefined();
    expect(payload.response_url).toBeUndefined();
    expect(payload.actions[0]).toMatchObject({
      type: 'static_select',
      block_id: 'branch',
      selected_option: { value: 'main' },
    });
    expect(payload.view?.state.values).toEqual({
      branch: { 'modal.reload': staticSelect('main') },
      image: { value: { type: 'plain_text_input', value: 'game:1' } },
    });
  });

  it('wraps interactions as payload=<urlencoded JSON>', () => {
    const payload = { type: 'block_actions', text: 'a&b=c d' };
    const body = interactionBody(payload);
    expect(body.startsWith('payload=')).toBe(true);
    expect(JSON.parse(new URLSearchParams(body).get('payload') as string)).toEqual(payload);
  });
});

describe('through a real Bolt app on an HTTP receiver', () => {
  let standIn: SlackStandIn;
  let app: App;
  let eventsUrl: string;
  const heard: string[] = [];

  beforeAll(async () => {
    standIn = await startSlackStandIn();
    const logger = recordingLogger();
    app = new App({
      signingSecret: SECRET,
      token: TEST_BOT.token,
      logger,
      clientOptions: {
        slackApiUrl: standIn.apiUrl,
        retryConfig: { retries: 0, factor: 1, minTimeout: 0, maxTimeout: 0 },
      },
    });
    app.command('/harbor', async ({ ack, command, respond }) => {
      heard.push(`command:${command.text}`);
      await ack();
      await respond({ text: `You asked for ${command.text}` });
    });
    app.action<BlockButtonAction>('change.confirm', async ({ ack, body, action, client }) => {
      await ack();
      await client.chat.update({
        channel: body.channel?.id as string,
        ts: body.message?.ts as string,
        text: `Confirmed ${action.value} by <@${body.user.id}>`,
        blocks: [],
      });
    });
    app.view('modal.promote', async ({ ack, view }) => {
      const image = view.state.values.image?.value?.value;
      if (!image) {
        await ack({ response_action: 'errors', errors: { image: 'Pick an image' } });
        return;
      }
      heard.push(
        `promote:${image}:${view.private_metadata}:${view.state.values.note?.value?.value ?? 'null'}`,
      );
      await ack();
    });
    const server = (await app.start(0)) as Server;
    eventsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  });

  afterAll(async () => {
    await app.stop();
    await standIn.stop();
  });

  it('acks a signed slash command and the reply arrives at the response URL', async () => {
    const responseUrl = standIn.responseUrl({ channel: 'C0OPS', user: TEST_USER.id });
    const res = await postSigned(
      eventsUrl,
      SECRET,
      slashCommandBody({ text: 'images main', response_url: responseUrl }),
    );
    expect(res.status).toBe(200);
    const reply = await standIn.waitFor((c) => c.method === RESPONSE_URL_METHOD);
    expect(reply.body).toEqual({ text: 'You asked for images main' });
    expect(standIn.responses(responseUrl)[0]?.effect).toBe('ephemeral');
    expect(standIn.callsTo('auth.test').length).toBeGreaterThan(0);
  });

  it('answers 401 to a forged signature and to a stale timestamp, without running the listener', async () => {
    const before = heard.length;
    const forged = await postSigned(eventsUrl, SECRET, slashCommandBody({ text: 'forged' }), {
      forgeSignature: true,
    });
    const stale = await postSigned(eventsUrl, SECRET, slashCommandBody({ text: 'stale' }), {
      timestampSeconds: nowSeconds() - 6 * 60,
    });
    expect([forged.status, stale.status]).toEqual([401, 401]);
    expect(heard.length).toBe(before);
  });

  it('delivers a button click on a posted message; the bot updates it through the stand-in', async () => {
    const posted = await app.client.chat.postMessage({
      channel: 'C0OPS',
      text: 'Promote?',
      blocks: [
        {
          type: 'actions',
          block_id: 'change-1',
          elements: [
            {
              type: 'button',
              action_id: 'change.confirm',
              value: 'chg-1',
              text: { type: 'plain_text', text: 'Go' },
            },
          ],
        },
      ],
    });
    const message = standIn.message('C0OPS', posted.ts as string);
    if (!message) throw new Error('message was not stored');
    const payload = blockActionsPayload({ actionId: 'change.confirm', message, user: TEST_USER });
    expect(payload.actions[0]).toMatchObject({ type: 'button', block_id: 'change-1', value: 'chg-1' });

    const res = await postSigned(eventsUrl, SECRET, interactionBody(payload));
    expect(res.status).toBe(200);
    await standIn.waitFor((c) => c.method === 'chat.update' && c.response.ok === true);
    expect(standIn.message('C0OPS', message.ts)?.text).toBe(`Confirmed chg-1 by <@${TEST_USER.id}>`);
  });

  it('delivers a view submission: missing input is answered with errors, a filled one acks empty', async () => {
    const opened = await app.client.views.open({
      trigger_id: standIn.triggerId(),
      view: {
        type: 'modal',
        callback_id: 'modal.promote',
        private_metadata: '{"channel":"C0OPS"}',
        title: { type: 'plain_text', text: 'Promote' },
        submit: { type: 'plain_text', text: 'Preview' },
        blocks: [
          {
            type: 'input',
            block_id: 'image',
            label: { type: 'plain_text', text: 'Image' },
            element: { type: 'plain_text_input', action_id: 'value' },
          },
          {
            type: 'input',
            block_id: 'note',
            optional: true,
            label: { type: 'plain_text', text: 'Note' },
            element: { type: 'plain_text_input', action_id: 'value' },
          },
        ],
      },
    });
    const view = standIn.view(opened.view?.id as string);
    if (!view) throw new Error('view was not stored');

    const empty = await postSigned(eventsUrl, SECRET, interactionBody(viewSubmissionPayload({ view })));
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ response_action: 'errors', errors: { image: 'Pick an image' } });

    const filled = viewSubmissionPayload({ view, values: { image: { value: textInput('game:1.2.3') } } });
    expect(filled.view.state.values.note).toEqual({ value: { type: 'plain_text_input', value: null } });
    const ok = await postSigned(eventsUrl, SECRET, interactionBody(filled));
    expect([ok.status, ok.text]).toEqual([200, '']);
    expect(heard).toContain('promote:game:1.2.3:{"channel":"C0OPS"}:null');
  });
});
