import { describe, expect, it } from '@jest/globals';
import { verifySlackRequest } from '@slack/bolt';
import { signatureCheck } from '../../../src/slack/runtime/request-signature.js';
import { signature, slashCommandBody } from '../../../src/workspace/signing.js';

const SECRET = 'harbor-signing-secret';
const NOW_S = 1_700_000_000;
const body = slashCommandBody({ text: 'promote game-server:1.2.0 from dev to staging' });

/** Bolt's own check on the same request, as the answer to agree with (past the future-timestamp rule). */
function boltAccepts(sig: string, timestamp: string): boolean {
  try {
    verifySlackRequest({
      signingSecret: SECRET,
      body,
      headers: { 'x-slack-signature': sig, 'x-slack-request-timestamp': Number(timestamp) },
      nowMilliseconds: NOW_S * 1000,
    });
    return true;
  } catch {
    return false;
  }
}

describe('the request signature check', () => {
  const check = signatureCheck(SECRET);
  const ours = (sig: string, timestamp: string, raw = body) =>
    check({ body: Buffer.from(raw), signature: sig, timestamp }, NOW_S * 1000);

  it.each([
    ['signed right', signature(SECRET, NOW_S, body), String(NOW_S)],
    ['signed 4 minutes ago', signature(SECRET, NOW_S - 240, body), String(NOW_S - 240)],
    ['signed with another secret', signature('other-secret', NOW_S, body), String(NOW_S)],
    ['stale (over 5 minutes old)', signature(SECRET, NOW_S - 301, body), String(NOW_S - 301)],
    ['signed for another timestamp', signature(SECRET, NOW_S - 1, body), String(NOW_S)],
    ['an unknown version', signature(SECRET, NOW_S, body).replace('v0=', 'v1='), String(NOW_S)],
    ['no signature', '', String(NOW_S)],
    ['a signature cut short', signature(SECRET, NOW_S, body).slice(0, 40), String(NOW_S)],
    ['no timestamp', signature(SECRET, NOW_S, body), ''],
  ])('agrees with Bolt on a request %s', (_what, sig, timestamp) => {
    expect(ours(sig, timestamp) === undefined).toBe(boltAccepts(sig, timestamp));
  });

  it('refuses a body changed after signing, saying the signature does not match', () => {
    expect(ours(signature(SECRET, NOW_S, body), String(NOW_S), `${body}&text=delete`)).toBe(
      'signature mismatch',
    );
  });

  it('refuses a timestamp more than 5 minutes ahead (Bolt lets it through), and says why', () => {
    const ahead = NOW_S + 301;
    expect(ours(signature(SECRET, ahead, body), String(ahead))).toMatch(/more than 5 minutes in the future/);
    expect(ours(signature(SECRET, NOW_S + 299, body), String(NOW_S + 299))).toBeUndefined();
  });

  it('says what is wrong: stale, not a v0 signature, not a number', () => {
    expect(ours(signature(SECRET, NOW_S - 301, body), String(NOW_S - 301))).toMatch(/minutes old \(stale\)/);
    expect(ours('v0=abc', String(NOW_S))).toMatch(/not a v0 signature/);
    expect(ours(signature(SECRET, NOW_S, body), '17e8')).toMatch(/not a number of seconds/);
  });

  it('refuses everything without a signing secret', () => {
    const none = signatureCheck('');
    expect(
      none(
        { body: Buffer.from(body), signature: signature('', NOW_S, body), timestamp: String(NOW_S) },
        NOW_S * 1000,
      ),
    ).toBe('no signing secret is configured');
  });
});
