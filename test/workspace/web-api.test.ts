import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { type WebAPIPlatformError, WebClient } from '@slack/web-api';
import { ManualClock } from '../../src/runtime/clock.js';
import { TEST_BOT, TEST_CHANNEL, TEST_TEAM } from '../../src/workspace/identity.js';
import { type SlackStandIn, startSlackStandIn } from '../../src/workspace/stand-in.js';
import { recordingLogger } from '../support/slack/recording-logger.js';

const FAST_RETRIES = { retries: 0, factor: 1, minTimeout: 0, maxTimeout: 0 };

let clock: ManualClock;
let standIn: SlackStandIn;
let client: WebClient;

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 0, 1));
  standIn = await startSlackStandIn({
    clock,
    usergroups: { S0ONCALL: ['U0ALICE', 'U0BOB'] },
    channels: { C0RELEASE: 'releases' },
    users: { U0BOB: { name: 'bob', realName: 'Bob Builder' } },
  });
  client = new WebClient(TEST_BOT.token, {
    slackApiUrl: standIn.apiUrl,
    retryConfig: FAST_RETRIES,
    logger: recordingLogger(),
  });
});

afterEach(async () => {
  await standIn.stop();
});

/** The Slack error code of a rejected call. */
async function errorOf(call: Promise<unknown>): Promise<string> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as WebAPIPlatformError | undefined;
  if (!error) throw new Error('expected the call to fail');
  return error.data.error;
}

describe('messages', () => {
  it('posts, updates and reads back the latest version; the form body arrives parsed', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*Promote* a to b' } }];
    const posted = await client.chat.postMessage({ channel: 'C0OPS', text: 'Promote a to b', blocks });
    expect(posted.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(posted.channel).toBe('C0OPS');
    expect(posted.message?.text).toBe('Promote a to b');

    const call = standIn.callsTo('chat.postMessage')[0];
    expect(call?.body.blocks).toEqual(blocks);
    expect(call?.token).toBe(TEST_BOT.token);
    expect(call?.body.token).toBeUndefined();
    expect(call?.at).toBe(clock.now());

    const ts = posted.ts as string;
    const updated = await client.chat.update({ channel: 'C0OPS', ts, text: 'Promoted' });
    expect(updated.ts).toBe(ts);
    const stored = standIn.message('C0OPS', ts);
    expect(stored?.text).toBe('Promoted');
    // chat.update keeps blocks it was not given, as Slack does.
    expect(stored?.blocks).toEqual(blocks);
    expect(stored?.history.map((v) => v.text)).toEqual(['Promote a to b']);
  });

  it('answers message_not_found for an unknown or deleted ts', async () => {
    expect(await errorOf(client.chat.update({ channel: 'C0OPS', ts: '1.000100', text: 'x' }))).toBe(
      'message_not_found',
    );
    const { ts } = await client.chat.postMessage({ channel: 'C0OPS', text: 'bye' });
    await client.chat.delete({ channel: 'C0OPS', ts: ts as string });
    expect(standIn.message('C0OPS', ts as string)?.deleted).toBe(true);
    expect(await errorOf(client.chat.update({ channel: 'C0OPS', ts: ts as string, text: 'x' }))).toBe(
      'message_not_found',
    );
    expect(await errorOf(client.chat.delete({ channel: 'C0OPS', ts: ts as string }))).toBe(
      'message_not_found',
    );
  });

  it('gives unique increasing timestamps even when the clock stands still, and keeps threads', async () => {
    const parent = await client.chat.postMessage({ channel: 'C0OPS', text: 'release 42' });
    const parentTs = parent.ts as string;
    const first = await client.chat.postMessage({ channel: 'C0OPS', text: 'step 1', thread_ts: parentTs });
    const second = await client.chat.postMessage({ channel: 'C0OPS', text: 'step 2', thread_ts: parentTs });
    expect(new Set([parentTs, first.ts, second.ts]).size).toBe(3);
    expect(Number(first.ts)).toBeGreaterThan(Number(parentTs));
    expect(Number(second.ts)).toBeGreaterThan(Number(first.ts));
    expect(standIn.thread('C0OPS', parentTs).map((m) => m.text)).toEqual(['step 1', 'step 2']);
    expect(second.message?.thread_ts).toBe(parentTs);
    clock.set(Date.UTC(2026, 0, 2));
    const later = await client.chat.postMessage({ channel: 'C0OPS', text: 'next day' });
    expect(later.ts).toBe(`${Date.UTC(2026, 0, 2) / 1000}.000000`);
  });

  it('rejects what Slack rejects: no content, too many blocks, oversized section text', async () => {
    expect(await errorOf(client.chat.postMessage({ channel: 'C0OPS', text: '' }))).toBe('no_text');
    const section = { type: 'section', text: { type: 'mrkdwn', text: 'x' } };
    const many = Array.from({ length: 51 }, () => section);
    expect(await errorOf(client.chat.postMessage({ channel: 'C0OPS', text: 't', blocks: many }))).toBe(
      'invalid_blocks',
    );
    const long = [{ type: 'section', text: { type: 'mrkdwn', text: 'y'.repeat(3001) } }];
    const rejected = await client.chat
      .postMessage({ channel: 'C0OPS', text: 't', blocks: long })
      .catch((e) => e);
    expect((rejected as WebAPIPlatformError).data.response_metadata?.messages).toEqual([
      '[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]',
    ]);
    const button = {
      type: 'button' as const,
      action_id: 'a',
      text: { type: 'plain_text' as const, text: 'Stop' },
      accessibility_label: 'z'.repeat(76),
    };
    const unlabelled = await client.chat
      .postMessage({
        channel: 'C0OPS',
        text: 't',
        blocks: [{ type: 'actions' as const, elements: [button] }],
      })
      .catch((e) => e);
    expect((unlabelled as WebAPIPlatformError).data.response_metadata?.messages).toEqual([
      '[ERROR] must be less than 76 characters [json-pointer:/blocks/0/elements/0/accessibility_label]',
    ]);
  });

  it('records ephemerals without making them messages', async () => {
    const sent = await client.chat.postEphemeral({ channel: 'C0OPS', user: 'U0ALICE', text: 'only you' });
    expect(sent.message_ts).toMatch(/^\d+\.\d{6}$/);
    expect(standIn.ephemerals()).toMatchObject([{ channel: 'C0OPS', user: 'U0ALICE', text: 'only you' }]);
    expect(standIn.channelMessages('C0OPS')).toEqual([]);
  });
});

describe('views', () => {
  const modal = (title: string) => ({
    type: 'modal' as const,
    callback_id: 'modal.promote',
    title: { type: 'plain_text' as const, text: title },
    submit: { type: 'plain_text' as const, text: 'Preview' },
    private_metadata: '{"kind":"promote"}',
    blocks: [
      {
        type: 'input' as const,
        block_id: 'image',
        label: { type: 'plain_text' as const, text: 'Image' },
        element: { type: 'plain_text_input' as const, action_id: 'value' },
      },
    ],
  });

  it('opens with an id and hash, updates by hash, and refuses a stale hash', async () => {
    const opened = await client.views.open({ trigger_id: standIn.triggerId(), view: modal('Promote') });
    const view = opened.view as { id: string; hash: string };
    expect(view.id).toMatch(/^V[0-9A-F]+$/);
    const updated = await client.views.update({
      view_id: view.id,
      hash: view.hash,
      view: modal('Promote 2'),
    });
    expect(updated.view?.hash).not.toBe(view.hash);
    expect(
      await errorOf(client.views.update({ view_id: view.id, hash: view.hash, view: modal('Again') })),
    ).toBe('hash_conflict');
    expect(await errorOf(client.views.update({ view_id: 'V999', view: modal('Nope') }))).toBe('not_found');
    expect(standIn.view(view.id)?.title).toEqual({ type: 'plain_text', text: 'Promote 2' });
    expect(standIn.viewHistory(view.id)).toHaveLength(2);
    expect(standIn.callsTo('views.open')[0]?.body.view).toEqual(modal('Promote'));
  });

  it('updates by external id', async () => {
    const external = { ...modal('Logs'), external_id: 'logs-1' };
    await client.views.open({ trigger_id: standIn.triggerId(), view: external });
    await client.views.update({
      external_id: 'logs-1',
      view: { ...modal('Logs (2)'), external_id: 'logs-1' },
    });
    expect(standIn.view('logs-1')?.title).toEqual({ type: 'plain_text', text: 'Logs (2)' });
    expect(await errorOf(client.views.update({ external_id: 'nope', view: modal('x') }))).toBe('not_found');
  });

  it('spends trigger ids once and lets them expire after 3 seconds', async () => {
    const trigger = standIn.triggerId();
    await client.views.open({ trigger_id: trigger, view: modal('One') });
    expect(await errorOf(client.views.open({ trigger_id: trigger, view: modal('Two') }))).toBe(
      'exchanged_trigger_id',
    );
    const late = standIn.triggerId();
    await clock.advance(3001);
    expect(await errorOf(client.views.open({ trigger_id: late, view: modal('Late') }))).toBe(
      'expired_trigger_id',
    );
  });

  it('pushes onto the modal the trigger came from', async () => {
    const root = (await client.views.open({ trigger_id: standIn.triggerId(), view: modal('Root') })).view;
    const rootId = root?.id as string;
    const pushed = await client.views.push({ trigger_id: standIn.triggerId(rootId), view: modal('Pushed') });
    expect(pushed.view).toMatchObject({ previous_view_id: rootId, root_view_id: rootId });
  });

  it('refuses a modal Slack would refuse', async () => {
    const longTitle = modal('A title longer than 24 chars');
    expect(await errorOf(client.views.open({ trigger_id: standIn.triggerId(), view: longTitle }))).toBe(
      'invalid_arguments',
    );
    const { submit: _s, ...noSubmit } = modal('No submit');
    expect(await errorOf(client.views.open({ trigger_id: standIn.triggerId(), view: noSubmit }))).toBe(
      'invalid_arguments',
    );
  });
});

describe('lookups and identity', () => {
  it('answers auth.test with the kit identity', async () => {
    const auth = await client.auth.test();
    expect(auth).toMatchObject({
      ok: true,
      user_id: TEST_BOT.userId,
      bot_id: TEST_BOT.botId,
      team_id: TEST_TEAM.id,
    });
  });

  it('lists user group members and refuses unknown groups; membership can change mid-test', async () => {
    expect((await client.usergroups.users.list({ usergroup: 'S0ONCALL' })).users).toEqual([
      'U0ALICE',
      'U0BOB',
    ]);
    expect(await errorOf(client.usergroups.users.list({ usergroup: 'S0NOPE' }))).toBe('no_such_subteam');
    standIn.usergroups.set('S0ONCALL', ['U0CAROL']);
    expect((await client.usergroups.users.list({ usergroup: 'S0ONCALL' })).users).toEqual(['U0CAROL']);
  });

  it('answers users.info and conversations.info from the configured maps', async () => {
    expect((await client.users.info({ user: 'U0BOB' })).user).toMatchObject({
      name: 'bob',
      real_name: 'Bob Builder',
    });
    expect((await client.users.info({ user: 'U0ZED' })).user).toMatchObject({ id: 'U0ZED', is_bot: false });
    expect(await errorOf(client.users.info({ user: 'not-a-user' }))).toBe('user_not_found');
    expect((await client.conversations.info({ channel: 'C0RELEASE' })).channel?.name).toBe('releases');
    expect((await client.conversations.info({ channel: TEST_CHANNEL.id })).channel?.name).toBe(
      TEST_CHANNEL.name,
    );
    expect(await errorOf(client.conversations.info({ channel: 'C0NOPE' }))).toBe('channel_not_found');
  });

  it('answers and records unknown methods', async () => {
    expect(await errorOf(client.apiCall('reactions.add', { name: 'tada' }))).toBe('unknown_method');
    expect(standIn.callsTo('reactions.add')).toHaveLength(1);
  });

  it('takes JSON bodies with a Bearer token, and checks the token when told to', async () => {
    const strict = await startSlackStandIn({ token: 'xoxb-right' });
    try {
      const post = (token: string | undefined) =>
        fetch(`${strict.apiUrl}chat.postMessage`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({ channel: 'C0OPS', text: 'json', blocks: '[]' }),
        }).then((r) => r.json() as Promise<Record<string, unknown>>);
      expect(await post('xoxb-right')).toMatchObject({ ok: true, channel: 'C0OPS' });
      expect(await post('xoxb-wrong')).toEqual({ ok: false, error: 'invalid_auth' });
      expect(await post(undefined)).toEqual({ ok: false, error: 'not_authed' });
      expect(strict.callsTo('chat.postMessage')[0]?.body).toEqual({
        channel: 'C0OPS',
        text: 'json',
        blocks: [],
      });
    } finally {
      await strict.stop();
    }
  });
});

describe('waitFor', () => {
  it('resolves on a call that arrives later, and with one already recorded', async () => {
    const waiting = standIn.waitFor((c) => c.method === 'chat.postMessage' && c.body.text === 'later');
    await client.chat.postMessage({ channel: 'C0OPS', text: 'earlier' });
    await client.chat.postMessage({ channel: 'C0OPS', text: 'later' });
    expect((await waiting).body.text).toBe('later');
    const again = await standIn.waitFor((c) => c.body.text === 'earlier');
    expect(again.method).toBe('chat.postMessage');
    await expect(
      standIn.waitFor((c) => c.body.text === 'earlier', { after: 1, timeoutMs: 50 }),
    ).rejects.toThrow(/No matching Slack call within 50 ms/);
  });

  it('lists recent calls when it times out', async () => {
    await client.chat.postMessage({ channel: 'C0OPS', text: 'something else' });
    const error = await standIn.waitFor((c) => c.method === 'chat.update', { timeoutMs: 20 }).catch((e) => e);
    expect(String(error)).toContain('chat.postMessage -> 200');
    expect(String(error)).toContain('something else');
  });

  it('rejects pending waits when stopped', async () => {
    const other = await startSlackStandIn();
    const waiting = other.waitFor(() => false, { timeoutMs: 10_000 });
    await other.stop();
    await expect(waiting).rejects.toThrow(/stand-in stopped/);
  });

  it('forgets calls on clear()', async () => {
    await client.chat.postMessage({ channel: 'C0OPS', text: 'x' });
    standIn.clear();
    expect(standIn.calls).toEqual([]);
  });
});
