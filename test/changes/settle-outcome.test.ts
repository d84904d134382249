/**
 * Issue 9, defects 3 and 5, as logic: which failures leave an apply's outcome
 * open, and how an unconfirmed change is settled by later reads on a
 * ManualClock (a write that may still land is not declared absent too early).
 */
import { describe, expect, it } from '@jest/globals';
import type { Change, ChangeFailure } from '../../src/changes/change.js';
import {
  IN_FLIGHT_SETTLE_MS,
  recheckUnconfirmed,
  settleFailedApply,
} from '../../src/changes/settle-outcome.js';
import { clarityOf } from '../../src/changes/unclear-outcome.js';
import { UserError } from '../../src/errors/user-error.js';
import { ApiError } from '../../src/gamefabric/errors.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { failureText } from '../../src/slack/render/failure-text.js';

const PATCH = { method: 'PATCH', path: '/api/formation/v1/environments/dev/formations/lobby' };
const statusBody = (code: number, reason: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message: 'x' });
const apiError = (status: number, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  new ApiError({ status, message: 'm', apiMessage: 'm', request: PATCH, ...extra });

const UNREACHABLE: ChangeFailure = {
  kind: 'unreachable',
  call: PATCH,
  detail: { reason: 'NetworkError', text: 'x' },
};

const change = {
  id: 'c1',
  operation: 'formation.remove',
  request: { environment: 'dev', formation: 'lobby', vessel: 'lobby-2' },
  status: 'applying',
  updatedAt: 0,
  preview: {
    summary: 'Remove vessel lobby-2 from formation lobby in dev',
    lines: [],
    notes: [],
    destructive: true,
    facts: {},
  },
  applyToken: 't',
} as unknown as Change;

describe('clarityOf', () => {
  it.each([
    [
      'a refusal with a Status body',
      'clear',
      apiError(409, { reason: 'Conflict', body: statusBody(409, 'Conflict') }),
    ],
    ['a 429', 'clear', apiError(429, { reason: 'TooManyRequests' })],
    ["a gateway's bare 409", 'answered', apiError(409, { body: 'Conflict' })],
    ['a 500', 'answered', apiError(500, { reason: 'InternalError', body: statusBody(500, 'InternalError') })],
    ['a 504 on a write', 'in_flight', apiError(504)],
    ['a reset on a write', 'in_flight', apiError(0, { reason: 'NetworkError' })],
    ['a timeout on a write', 'in_flight', apiError(0, { reason: 'Timeout' })],
    ['a 2xx with a broken body', 'in_flight', apiError(200, { reason: 'InvalidResponse' })],
    [
      'a reset on a read',
      'answered',
      new ApiError({
        status: 0,
        reason: 'NetworkError',
        message: 'm',
        apiMessage: 'm',
        request: { method: 'GET', path: '/x' },
      }),
    ],
    ['a user error', 'clear', new UserError('no')],
    ['a bug', 'answered', new TypeError('x is undefined')],
  ] as const)('%s is %s', (_what, clarity, err) => {
    expect(clarityOf(err)).toBe(clarity);
  });
});

describe('settling an unclear apply', () => {
  it('a 2xx with a broken body and the change visible: succeeded, saying how it was confirmed', async () => {
    const settled = await settleFailedApply(
      change,
      apiError(200, { reason: 'InvalidResponse' }),
      { kind: 'api_failed', call: PATCH, status: 200, detail: { reason: 'InvalidResponse', text: 'x' } },
      async () => 'applied',
      0,
      silentLogger,
    );
    expect(settled).toMatchObject({
      status: 'succeeded',
      result: { summary: `${change.preview.summary}: done` },
    });
    expect(JSON.stringify(settled)).toMatch(
      /answer could not be read; a read of formation lobby in environment dev shows the change is there/,
    );
  });

  it('a reset and the change not visible (yet): unconfirmed, never "nothing was changed"', async () => {
    const settled = await settleFailedApply(
      change,
      apiError(0, { reason: 'NetworkError' }),
      UNREACHABLE,
      async () => 'not_applied',
      1000,
      silentLogger,
    );
    expect(settled).toMatchObject({
      status: 'unconfirmed',
      failure: { kind: 'unconfirmed', since: 1000, mayStillLand: true },
    });
    const message = failureText((settled as { failure: ChangeFailure }).failure);
    expect(message).toMatch(/^Could not confirm whether this took effect: the connection broke during PATCH/);
    expect(message).toMatch(/Look at formation lobby in environment dev before retrying/);
    expect(message).not.toMatch(/nothing was changed/i);
  });

  it('housekeeping keeps an unanswered write open until it can no longer land, then says nothing changed', async () => {
    const clock = new ManualClock(0);
    const settled = await settleFailedApply(
      change,
      apiError(0, { reason: 'Timeout' }),
      UNREACHABLE,
      async () => 'not_applied',
      clock.now(),
      silentLogger,
    );
    const open = { ...change, error: (settled as { failure: object }).failure } as Change;
    await clock.advance(IN_FLIGHT_SETTLE_MS - 1);
    expect(await recheckUnconfirmed(open, async () => 'not_applied', clock.now())).toBeUndefined();
    // A read that fails proves nothing, however late.
    await clock.advance(1);
    expect(
      await recheckUnconfirmed(open, async () => Promise.reject(new Error('down')), clock.now()),
    ).toBeUndefined();
    const final = await recheckUnconfirmed(open, async () => 'not_applied', clock.now());
    expect(final).toMatchObject({ status: 'failed' });
    expect(failureText((final as { failure: ChangeFailure }).failure)).toMatch(
      /did not answer PATCH .* in time\. Reads of formation lobby in environment dev over the following 10 min never showed the change, so nothing was changed/,
    );
  });

  it('a late write that shows up on a later read: succeeded', async () => {
    const settled = await settleFailedApply(
      change,
      apiError(0, { reason: 'Timeout' }),
      UNREACHABLE,
      async () => 'not_applied',
      0,
      silentLogger,
    );
    const open = { ...change, error: (settled as { failure: object }).failure } as Change;
    expect(await recheckUnconfirmed(open, async () => 'applied', 60_000)).toMatchObject({
      status: 'succeeded',
    });
  });
});
