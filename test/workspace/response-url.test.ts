import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../src/runtime/clock.js';
import { RESPONSE_URL_MAX_USES, RESPONSE_URL_TTL_MS } from '../../src/workspace/response-urls.js';
import { RESPONSE_URL_METHOD, type SlackStandIn, startSlackStandIn } from '../../src/workspace/stand-in.js';

let clock: ManualClock;
let standIn: SlackStandIn;

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 0, 1));
  standIn = await startSlackStandIn({ clock });
});

afterEach(async () => {
  await standIn.stop();
});

/** POSTs JSON to a response URL the way Bolt's respond() does. */
async function respond(url: string, body: object): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** A real message in C0OPS, as the bot would have posted it, with a response URL for a click on it. */
async function clickedMessage(): Promise<{ ts: string; url: string }> {
  const res = await fetch(`${standIn.apiUrl}chat.postMessage`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ channel: 'C0OPS', text: 'Confirm?' }).toString(),
  });
  const { ts } = (await res.json()) as { ts: string };
  return { ts, url: standIn.responseUrl({ channel: 'C0OPS', messageTs: ts, user: 'U0ALICE' }) };
}

describe('response URLs', () => {
  it('hands out distinct local URLs', () => {
    const a = standIn.responseUrl();
    const b = standIn.responseUrl();
    expect(a).toMatch(new RegExp(`^${standIn.url}/response/\\w+$`));
    expect(a).not.toBe(b);
  });

  it('works five times, then answers 404 used_url', async () => {
    const url = standIn.responseUrl({ channel: 'C0OPS', user: 'U0ALICE' });
    for (let i = 1; i <= RESPONSE_URL_MAX_USES; i++) {
      expect(await respond(url, { text: `update ${i}` })).toEqual({ status: 200, body: { ok: true } });
    }
    expect(await respond(url, { text: 'one too many' })).toEqual({
      status: 404,
      body: { ok: false, error: 'used_url' },
    });
    const posts = standIn.responses(url);
    expect(posts.map((p) => p.effect)).toEqual([
      'ephemeral',
      'ephemeral',
      'ephemeral',
      'ephemeral',
      'ephemeral',
      'rejected',
    ]);
    expect(posts[5]?.error).toBe('used_url');
    // By id as well as by URL, and recorded as calls for waitFor.
    expect(standIn.responses(url.split('/').pop() as string)).toHaveLength(6);
    expect(standIn.callsTo(RESPONSE_URL_METHOD)).toHaveLength(6);
  });

  it('expires after 30 minutes of the clock', async () => {
    const url = standIn.responseUrl();
    await clock.advance(RESPONSE_URL_TTL_MS);
    expect((await respond(url, { text: 'just in time' })).status).toBe(200);
    await clock.advance(1);
    expect(await respond(url, { text: 'late' })).toEqual({
      status: 404,
      body: { ok: false, error: 'expired_url' },
    });
  });

  it('answers 404 for a URL it never handed out', async () => {
    expect((await respond(`${standIn.url}/response/R999999`, { text: 'x' })).status).toBe(404);
  });

  it('is ephemeral by default and public with response_type in_channel', async () => {
    const url = standIn.responseUrl({ channel: 'C0OPS', user: 'U0ALICE' });
    await respond(url, { text: 'just you' });
    expect(standIn.ephemerals()).toMatchObject([{ channel: 'C0OPS', user: 'U0ALICE', text: 'just you' }]);
    expect(standIn.channelMessages('C0OPS')).toEqual([]);

    await respond(url, { text: 'everyone', response_type: 'in_channel' });
    const [post] = standIn.responses(url).slice(-1);
    expect(post?.effect).toBe('in_channel');
    expect(standIn.message('C0OPS', post?.ts as string)?.text).toBe('everyone');
  });

  it('replace_original replaces the whole message that carried the button', async () => {
    const { ts, url } = await clickedMessage();
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: 'Done' } }];
    await respond(url, { replace_original: true, text: 'Done', blocks });
    expect(standIn.message('C0OPS', ts)).toMatchObject({ text: 'Done', blocks });
    await respond(url, { replace_original: 'true', text: 'Plain now' });
    expect(standIn.message('C0OPS', ts)).toMatchObject({ text: 'Plain now', blocks: [] });
    expect(standIn.message('C0OPS', ts)?.history.map((v) => v.text)).toEqual(['Confirm?', 'Done']);
  });

  it("a slash command's replace_original replaces its last ephemeral whole, keeping what it replaced", async () => {
    const url = standIn.responseUrl({ channel: 'C0OPS', user: 'U0ALICE' });
    await respond(url, { text: 'Working on it…' });
    await respond(url, { replace_original: true, text: 'The answer' });
    await respond(url, { replace_original: true, text: 'A later answer' });
    expect(standIn.ephemerals()).toMatchObject([{ text: 'A later answer', blocks: [] }]);
    expect(standIn.ephemerals()[0]?.replaced?.map((v) => v.text)).toEqual(['Working on it…', 'The answer']);
    await respond(url, { delete_original: true });
    expect(standIn.ephemerals()).toEqual([]);
  });

  it('delete_original deletes the message, and must come alone', async () => {
    const { ts, url } = await clickedMessage();
    expect(await respond(url, { delete_original: true, text: 'and a note' })).toEqual({
      status: 400,
      body: { ok: false, error: 'delete_original_must_be_alone' },
    });
    expect(standIn.message('C0OPS', ts)?.deleted).toBe(false);
    expect((await respond(url, { delete_original: true })).status).toBe(200);
    expect(standIn.message('C0OPS', ts)?.deleted).toBe(true);
    expect(standIn.responses(url).map((p) => p.effect)).toEqual(['rejected', 'deleted']);
  });

  it('refuses an empty response and oversized blocks', async () => {
    const url = standIn.responseUrl();
    expect((await respond(url, {})).body).toEqual({ ok: false, error: 'no_text' });
    const huge = [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } }];
    expect((await respond(url, { text: 't', blocks: huge })).body).toEqual({
      ok: false,
      error: 'invalid_blocks',
    });
  });

  it('accepts a form body with a JSON payload field too', async () => {
    const url = standIn.responseUrl({ channel: 'C0OPS' });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `payload=${encodeURIComponent(JSON.stringify({ text: 'from a form', response_type: 'in_channel' }))}`,
    });
    expect(res.status).toBe(200);
    expect(standIn.channelMessages('C0OPS').map((m) => m.text)).toEqual(['from a form']);
  });
});
