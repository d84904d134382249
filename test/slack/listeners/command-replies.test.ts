/**
 * "Working on it…" for slow commands, against the Slack stand-in's real
 * response URLs; time is a ManualClock, so nothing here waits on the wall
 * clock: the notice appears exactly when a second of the clock has passed.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { RespondArguments } from '@slack/bolt';
import { ManualClock } from '../../../src/runtime/clock.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { commandReplies } from '../../../src/slack/listeners/command-replies.js';
import {
  RESPONSE_URL_METHOD,
  type SlackStandIn,
  startSlackStandIn,
} from '../../../src/workspace/stand-in.js';

const COMMAND = '/harbor vessels dev';
const ANSWER = { text: 'Vessels in dev: lobby-1', blocks: [] };

let clock: ManualClock;
let slack: SlackStandIn;
let url: string;

beforeEach(async () => {
  clock = new ManualClock();
  slack = await startSlackStandIn();
  url = slack.responseUrl({ channel: 'C0OPS', user: 'U0ALICE' });
});

afterEach(async () => {
  await slack.stop();
});

/** Bolt's respond(): a JSON POST to the command's response URL. */
async function respond(message: RespondArguments): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(message),
  });
  if (res.status !== 200) throw new Error(`response_url answered ${res.status}`);
}

const replies = () =>
  commandReplies(respond, { command: COMMAND, clock, afterMs: 1000, logger: silentLogger });
const shown = () => slack.ephemerals().map((e) => `${e.text} | ${JSON.stringify(e.blocks)}`);
/** Waits (on the stand-in's record, not on time) until the response URL has received `n` posts. */
const posts = (n: number) =>
  slack.waitFor((c) => c.method === RESPONSE_URL_METHOD && slack.responses(url).length >= n);

describe('a command’s private answers', () => {
  it('answer at once, with no notice, when ready within a second', async () => {
    const r = replies();
    await clock.advance(999);
    await r.reply(ANSWER);
    await r.finish();
    await clock.advance(5000);
    expect(slack.responses(url).map((p) => p.effect)).toEqual(['ephemeral']);
    expect(slack.ephemerals().map((e) => e.text)).toEqual([ANSWER.text]);
  });

  it('show "Working on it…" after a second, then replace it with the answer, naming the command', async () => {
    const r = replies();
    await clock.advance(1000);
    await posts(1);
    expect(slack.ephemerals().map((e) => e.text)).toEqual(['Working on it… `/harbor vessels dev`']);

    await r.reply(ANSWER);
    await r.finish();
    expect(slack.responses(url).map((p) => p.effect)).toEqual(['ephemeral', 'replaced']);
    const [only] = slack.ephemerals();
    expect(slack.ephemerals()).toHaveLength(1);
    expect(only?.text).toBe(ANSWER.text);
    expect(JSON.stringify(only?.blocks)).toContain('In answer to `/harbor vessels dev`');
  });

  it('tie a late error to its command, in place of the notice', async () => {
    const r = replies();
    await clock.advance(1000);
    await posts(1);
    await r.reply({ text: 'The hosting API is unavailable (503).', blocks: [] });
    expect(shown()).toEqual([
      expect.stringMatching(
        /^The hosting API is unavailable \(503\)\. \| .*In answer to `\/harbor vessels dev`/,
      ),
    ]);
  });

  it('remove the notice when the answer went elsewhere (a preview in the channel)', async () => {
    const r = replies();
    await clock.advance(1000);
    await posts(1);
    await r.finish();
    expect(slack.responses(url).map((p) => p.effect)).toEqual(['ephemeral', 'deleted']);
    expect(slack.ephemerals()).toEqual([]);
  });

  it('never show a notice once the work is over, and replace only once', async () => {
    const quick = replies();
    await quick.finish();
    await clock.advance(2000);
    expect(slack.responses(url)).toEqual([]);

    const slow = replies();
    await clock.advance(1000);
    await posts(1);
    await slow.reply(ANSWER);
    await slow.reply({ text: 'and one more thing', blocks: [] });
    expect(slack.responses(url).map((p) => p.effect)).toEqual(['ephemeral', 'replaced', 'ephemeral']);
    expect(slack.ephemerals().map((e) => e.text)).toEqual([ANSWER.text, 'and one more thing']);
  });

  it('keep command text that looks like markup inside the code span', async () => {
    url = slack.responseUrl({ channel: 'C0OPS', user: 'U0ALICE' });
    const r = commandReplies(respond, {
      command: '/harbor logs dev `x` <!here>',
      clock,
      afterMs: 1000,
      logger: silentLogger,
    });
    await clock.advance(1000);
    await posts(1);
    await r.finish();
    expect(slack.responses(url)[0]?.body.text).toBe('Working on it… `/harbor logs dev ʼxʼ &lt;!here&gt;`');
  });
});
