/**
 * Hostile or broken signed requests (issue 9, defect 9): a body whose
 * signature is right but whose shape is not (`payload=null`, no user, no
 * view, a button value that is not a string) gets a 400 naming what is
 * wrong; the process survives, nothing is logged as an internal error, and
 * the bot still answers the next real command.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { blockActionsPayload, postSigned, slashCommandBody } from '../../../src/workspace/signing.js';
import { ALICE, type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';

let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h.stop();
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const payload = (value: unknown) => form({ payload: JSON.stringify(value) });
const click = (overrides: Record<string, unknown>) => ({
  ...blockActionsPayload({ actionId: CHANGE_ACTIONS.confirm, value: 'some-change', user: ALICE }),
  ...overrides,
});

const cases: [string, string, RegExp][] = [
  ['payload=null', form({ payload: 'null' }), /payload is not a JSON object/],
  ['payload is a number', form({ payload: '7' }), /payload is not a JSON object/],
  ['payload is a list', payload([1, 2]), /payload is not a JSON object/],
  ['payload given twice', 'payload=%7B%7D&payload=%7B%7D', /payload is given more than once/],
  ['a payload without a type', payload({ user: { id: 'U0ALICE' } }), /payload.type/],
  ['a click without a user', payload(click({ user: undefined })), /user.id/],
  ['a click whose user is null', payload(click({ user: null })), /user.id/],
  ['a click without actions', payload(click({ actions: [] })), /actions is missing or empty/],
  [
    'a click whose button value is a number',
    payload(click({ actions: [{ action_id: CHANGE_ACTIONS.confirm, type: 'button', value: 42 }] })),
    /actions\[0\].value is not a string/,
  ],
  [
    'a modal submission without a view',
    payload({ type: 'view_submission', user: { id: 'U0ALICE' }, team: { id: 'T0HARBOR' } }),
    /view is missing/,
  ],
  [
    'a modal submission whose state is not an object',
    payload({
      type: 'view_submission',
      user: { id: 'U0ALICE' },
      view: { id: 'V1', callback_id: 'x', private_metadata: '{}', state: { values: 'no' } },
    }),
    /view.state.values/,
  ],
  ['a slash command without a user', slashCommandBody({ user_id: '' }), /user_id is missing/],
];

describe('signed but malformed requests', () => {
  it.each(cases)('%s gets a 400 naming the problem', async (_name, body, reason) => {
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, body);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(reason);
  });

  it('a JSON body of null gets a 400 too', async () => {
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, 'null', { contentType: 'application/json' });
    expect(res.status).toBe(400);
  });

  it('leave the bot running and answering, with no internal error logged', async () => {
    for (const [, body] of cases) await postSigned(h.eventsUrl, SIGNING_SECRET, body);
    const res = await h.slash('help');
    expect(res.status).toBe(200);
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('/harbor');
    const health = await fetch(h.eventsUrl.replace('/slack/events', '/healthz'));
    expect(health.status).toBe(200);
    const errors = h.logs.lines.filter((line) => JSON.parse(line).level === 'error');
    expect(errors).toEqual([]);
    expect(h.slack.channelMessages(TEST_CHANNEL.id)).toEqual([]);
  });

  it('still refuses an unsigned well-formed request with 401', async () => {
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, slashCommandBody({ text: 'help' }), {
      forgeSignature: true,
    });
    expect(res.status).toBe(401);
  });

  it("still answers Slack's unsigned ssl_check probe, and runs nothing smuggled with it", async () => {
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, 'ssl_check=1&token=x', {
      forgeSignature: 'v0=nothing',
    });
    expect(res.status).toBe(200);
    const before = [...h.sim.requests];
    const smuggled = `ssl_check=1&${slashCommandBody({ text: 'vessels dev' })}`;
    const probe = await postSigned(h.eventsUrl, SIGNING_SECRET, smuggled, { forgeSignature: 'v0=nothing' });
    expect(probe.status).toBe(200);
    await h.settle();
    expect(h.sim.requests).toEqual(before);
  });

  it('checks the signature before the shape: an unsigned or stale malformed body gets a bare 401', async () => {
    const forged = await postSigned(h.eventsUrl, SIGNING_SECRET, form({ payload: 'null' }), {
      forgeSignature: true,
    });
    expect(forged.status).toBe(401);
    expect(forged.text).toBe('');
    const stale = await postSigned(h.eventsUrl, SIGNING_SECRET, form({ payload: 'null' }), {
      timestampSeconds: Math.floor(Date.now() / 1000) - 600,
    });
    expect(stale.status).toBe(401);
    const unsigned = await postSigned(h.eventsUrl, SIGNING_SECRET, slashCommandBody({ text: 'help' }), {
      headers: { 'x-slack-signature': '' },
    });
    expect(unsigned.status).toBe(401);
  });

  it('a signed payload that is not JSON gets a 400 saying so', async () => {
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, form({ payload: '{"type":' }));
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/payload is not valid JSON/);
  });
});
