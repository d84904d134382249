import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { WebAPIRateLimitedError, WebClient, WebClientEvent, type WebClientOptions } from '@slack/web-api';
import { ManualClock } from '../../src/runtime/clock.js';
import { TEST_BOT } from '../../src/workspace/identity.js';
import { type SlackStandIn, startSlackStandIn } from '../../src/workspace/stand-in.js';
import { recordingLogger } from '../support/slack/recording-logger.js';

let clock: ManualClock;
let standIn: SlackStandIn;

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 0, 1));
  standIn = await startSlackStandIn({ clock });
});

afterEach(async () => {
  await standIn.stop();
});

function clientFor(options: WebClientOptions = {}): WebClient {
  return new WebClient(TEST_BOT.token, {
    slackApiUrl: standIn.apiUrl,
    retryConfig: { retries: 1, factor: 1, minTimeout: 0, maxTimeout: 0 },
    logger: recordingLogger(),
    ...options,
  });
}

describe('forced 429s', () => {
  it('WebClient honours Retry-After and its retry succeeds', async () => {
    standIn.forceRateLimit('chat.postMessage', { count: 1, retryAfterSeconds: 0 });
    const rateLimitedEvents: number[] = [];
    const client = clientFor();
    client.on(WebClientEvent.RATE_LIMITED, (seconds: number) => rateLimitedEvents.push(seconds));

    const posted = await client.chat.postMessage({ channel: 'C0OPS', text: 'hello' });

    expect(posted.ok).toBe(true);
    expect(standIn.callsTo('chat.postMessage').map((c) => c.status)).toEqual([429, 200]);
    expect(standIn.rateLimited).toMatchObject([{ method: 'chat.postMessage', reason: 'forced' }]);
    expect(rateLimitedEvents).toEqual([0]);
    expect(standIn.channelMessages('C0OPS')).toHaveLength(1);
  });

  it('reaches a client that rejects rate-limited calls as WebAPIRateLimitedError with retryAfter', async () => {
    standIn.forceRateLimit('chat.update', { count: 2, retryAfterSeconds: 7 });
    const client = clientFor({ rejectRateLimitedCalls: true });
    const { ts } = await client.chat.postMessage({ channel: 'C0OPS', text: 'a' });
    const update = () => client.chat.update({ channel: 'C0OPS', ts: ts as string, text: 'b' });

    for (let i = 0; i < 2; i++) {
      const error = await update().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebAPIRateLimitedError);
      expect((error as WebAPIRateLimitedError).retryAfter).toBe(7);
    }
    expect((await update()).ok).toBe(true);
    expect(standIn.rateLimited).toHaveLength(2);
    // Other methods are unaffected.
    expect(standIn.callsTo('chat.postMessage').map((c) => c.status)).toEqual([200]);
  });
});

describe('enforced limits on a manual clock', () => {
  it('allows one chat.postMessage per second per channel', async () => {
    standIn.enforceLimits({ clock, postMessagePerChannelPerSecond: 1 });
    const client = clientFor({ rejectRateLimitedCalls: true });
    await client.chat.postMessage({ channel: 'C0OPS', text: '1' });
    await client.chat.postMessage({ channel: 'C0OTHER', text: 'other channel, own budget' });

    const error = await client.chat.postMessage({ channel: 'C0OPS', text: '2' }).catch((e: unknown) => e);
    expect((error as WebAPIRateLimitedError).retryAfter).toBe(1);
    expect(standIn.rateLimited).toMatchObject([
      { method: 'chat.postMessage', key: 'chat.postMessage:C0OPS', reason: 'enforced', retryAfterSeconds: 1 },
    ]);

    await clock.advance(999);
    await expect(client.chat.postMessage({ channel: 'C0OPS', text: '2' })).rejects.toBeInstanceOf(
      WebAPIRateLimitedError,
    );
    await clock.advance(1);
    expect((await client.chat.postMessage({ channel: 'C0OPS', text: '2' })).ok).toBe(true);
  });

  it('allows 50 chat.update per sliding minute per workspace, with Retry-After until the oldest leaves', async () => {
    standIn.enforceLimits({ clock, chatUpdatePerMinute: 50 });
    const client = clientFor({ rejectRateLimitedCalls: true });
    const a = (await client.chat.postMessage({ channel: 'C0A', text: 'a' })).ts as string;
    const b = (await client.chat.postMessage({ channel: 'C0B', text: 'b' })).ts as string;

    // 30 updates at t=0 and 20 at t=20s fill the window across two channels.
    for (let i = 0; i < 30; i++) await client.chat.update({ channel: 'C0A', ts: a, text: `a${i}` });
    await clock.advance(20_000);
    for (let i = 0; i < 20; i++) await client.chat.update({ channel: 'C0B', ts: b, text: `b${i}` });

    const refused = await client.chat
      .update({ channel: 'C0B', ts: b, text: 'over' })
      .catch((e: unknown) => e);
    expect((refused as WebAPIRateLimitedError).retryAfter).toBe(40);

    // When the first 30 leave the window, 30 more fit, and the 31st does not.
    await clock.advance(40_000);
    for (let i = 0; i < 30; i++) await client.chat.update({ channel: 'C0A', ts: a, text: `again${i}` });
    const again = await client.chat.update({ channel: 'C0A', ts: a, text: 'over' }).catch((e: unknown) => e);
    expect((again as WebAPIRateLimitedError).retryAfter).toBe(20);

    expect(standIn.rateLimited.map((r) => r.reason)).toEqual(['enforced', 'enforced']);
    expect(standIn.message('C0A', a)?.text).toBe('again29');
    // Other methods are not limited unless asked.
    expect((await client.chat.postMessage({ channel: 'C0A', text: 'free' })).ok).toBe(true);
  });

  it('limits other methods per minute when asked, and stops when relaxed', async () => {
    standIn.enforceLimits({ clock, perMinute: { 'usergroups.users.list': 1 } });
    standIn.usergroups.set('S0X', ['U0ALICE']);
    const client = clientFor({ rejectRateLimitedCalls: true });
    await client.usergroups.users.list({ usergroup: 'S0X' });
    await expect(client.usergroups.users.list({ usergroup: 'S0X' })).rejects.toBeInstanceOf(
      WebAPIRateLimitedError,
    );
    standIn.relaxLimits();
    expect((await client.usergroups.users.list({ usergroup: 'S0X' })).ok).toBe(true);
  });
});
