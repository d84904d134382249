/**
 * Issue 22, point 9: signed requests the bot must refuse or answer plainly.
 * An Events API body whose `event` is null, a modal submission without
 * `state` and a "Tail logs" button whose value is forged each get a clear
 * answer (a 400 naming the problem, or a validation message to the clicker),
 * never a 500 or "internal error"; a signature dated in the future is as
 * stale as one dated in the past.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TAIL_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { blockActionsPayload, interactionBody, slashCommandBody } from '../../../src/workspace/payloads.js';
import { postSigned } from '../../../src/workspace/signing.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, type BotHarness, SIGNING_SECRET, slashBody, startBotHarness } from './bot-harness.js';

let h: BotHarness;
beforeAll(async () => {
  h = await startBotHarness();
});
afterAll(async () => {
  await h.stop();
});

const payload = (value: unknown) => new URLSearchParams({ payload: JSON.stringify(value) }).toString();
const json = { contentType: 'application/json' };

function internalErrors(): string[] {
  return h.logs.lines.filter((line) => JSON.parse(line).level === 'error');
}

describe('signed but malformed (issue 22.9)', () => {
  it('an event callback whose event is null gets a 400 naming it', async () => {
    const body = JSON.stringify({ type: 'event_callback', team_id: 'T0HARBOR', event: null });
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, body, json);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/event is missing or not an object/);
  });

  it('an event callback whose event has no type gets a 400 naming it', async () => {
    const body = JSON.stringify({ type: 'event_callback', team_id: 'T0HARBOR', event: { user: 'U1' } });
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, body, json);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/event.type is missing/);
  });

  it('a modal submission without state gets a 400 naming it', async () => {
    const body = payload({
      type: 'view_submission',
      user: { id: ALICE.id },
      team: { id: 'T0HARBOR' },
      view: { id: 'V1', callback_id: 'modal.promote', private_metadata: '{}' },
    });
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, body);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/view.state is missing/);
    expect(internalErrors()).toEqual([]);
  });

  it('a signature dated more than 5 minutes in the future is refused like a stale one', async () => {
    const future = Math.floor(Date.now() / 1000) + 6 * 60;
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, slashBody(h.slack, 'help'), {
      timestampSeconds: future,
    });
    expect(res.status).toBe(401);
    const near = Math.floor(Date.now() / 1000) + 30;
    const ok = await postSigned(h.eventsUrl, SIGNING_SECRET, slashBody(h.slack, 'help'), {
      timestampSeconds: near,
    });
    expect(ok.status).toBe(200);
    await h.settle();
  });
});

describe('a forged "Tail logs" value (issue 22.9)', () => {
  const forged: [string, unknown, RegExp][] = [
    [
      'an environment that is not a name',
      { environment: 'PROD!', vessel: 'lobby-1' },
      /environment `PROD!` is not valid/,
    ],
    [
      'a vessel that is not a name',
      { environment: 'dev', vessel: '../../secrets' },
      /vessel `..\/..\/secrets` is not valid/,
    ],
    [
      'a container that is not a name',
      { environment: 'dev', vessel: 'lobby-1', container: 'A B' },
      /container `A B` is not valid/,
    ],
    ['an overlong vessel', { environment: 'dev', vessel: 'x'.repeat(300) }, /at most 63 characters/],
    ['a list', [1, 2], /not a JSON object/],
    [
      'a release id that is not a string',
      { environment: 'dev', vessel: 'lobby-1', releaseId: 7 },
      /release id is not a string/,
    ],
    [
      'a release that does not exist',
      { environment: 'dev', vessel: 'lobby-1', releaseId: 'rel-nope' },
      /names a release this channel does not have/,
    ],
  ];
  it.each(forged)(
    '%s is answered with what is wrong, not an internal error',
    async (_name, value, reason) => {
      const posted = await h.running.bot.app.client.chat.postMessage({
        channel: TEST_CHANNEL.id,
        text: 'Release 42',
        blocks: [
          {
            type: 'actions',
            elements: [
              {
                type: 'button',
                action_id: TAIL_ACTIONS.start,
                text: { type: 'plain_text', text: 'Tail logs' },
                value: JSON.stringify(value),
              },
            ],
          },
        ],
      });
      const before = h.ephemeralTexts(ALICE).length;
      await h.click(
        h.slack.message(TEST_CHANNEL.id, posted.ts as string) as StoredMessage,
        TAIL_ACTIONS.start,
        ALICE,
      );
      const said = h.ephemeralTexts(ALICE).slice(before).join('\n');
      expect(said).toMatch(reason);
      expect(said).not.toMatch(/internal error|went wrong/i);
      expect(internalErrors()).toEqual([]);
      expect(await h.running.core.store.listTails({})).toEqual([]);
    },
  );
});

describe('response URLs off Slack (issue 22.4)', () => {
  it('a command whose response_url is not on Slack is refused with a 400 and nothing is posted there', async () => {
    const elsewhere = await startCatcher();
    try {
      const body = slashCommandBody({
        text: 'help',
        user_id: ALICE.id,
        response_url: `${elsewhere.url}/commands/T0/1/x`,
      });
      const res = await postSigned(h.eventsUrl, SIGNING_SECRET, body);
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/response_url is not a Slack address/);
      await h.settle();
      expect(elsewhere.hits).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('a click whose response_url is not on Slack is refused too', async () => {
    const elsewhere = await startCatcher();
    try {
      const click = blockActionsPayload({
        actionId: TAIL_ACTIONS.stop,
        value: 'no-such-tail',
        user: ALICE,
        responseUrl: `${elsewhere.url}/actions/x`,
      });
      const res = await postSigned(h.eventsUrl, SIGNING_SECRET, interactionBody(click));
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/response_url is not a Slack address/);
      await h.settle();
      expect(elsewhere.hits).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});

/** A plain HTTP server standing in for someone else's host; records what is posted to it. */
async function startCatcher(): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // localhost, not 127.0.0.1: the same machine as the stand-in, but not its configured host.
    url: `http://localhost:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
