/**
 * The bot token's check at start (src/slack/runtime/token-check.ts): asked
 * once, while the store and the policy load, and handed to Bolt, the Slack
 * budget and the user-group lookups, which do not ask again; a token Slack refuses fails the start in words an operator
 * can act on.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { createMemoryLogger } from '../../src/runtime/logger.js';
import { demoData, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { describeStartFailure } from '../../src/startup/describe-start-failure.js';
import { startBot } from '../../src/startup/start-bot.js';
import { TEST_BOT } from '../../src/workspace/identity.js';
import { postSigned } from '../../src/workspace/signing.js';
import { type SlackStandIn, startSlackStandIn } from '../../src/workspace/stand-in.js';
import { BOB, CAROL, e2eConfig, SIGNING_SECRET, SRE_GROUP, slashBody } from '../e2e/slack/bot-harness.js';

let sim: Simulator;
let slack: SlackStandIn;
let dataDir: string;

beforeEach(async () => {
  sim = await startSimulator({ port: 0, stepMs: 5, data: demoData() });
  slack = await startSlackStandIn({ token: TEST_BOT.token, usergroups: { [SRE_GROUP]: [BOB.id, CAROL.id] } });
  dataDir = await mkdtemp(join(tmpdir(), 'harbor-token-check-'));
});

afterEach(async () => {
  await slack.stop();
  await sim.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const authTests = () => slack.calls.filter((c) => c.method === 'auth.test').length;

it('asks auth.test once before listening, and Bolt answers commands without asking again', async () => {
  const config = await e2eConfig({ slackApiUrl: slack.apiUrl, sim, dataDir });
  const bot = await startBot(config, createMemoryLogger());
  try {
    expect(authTests()).toBe(1);
    /** `/harbor <text>`, signed, answered 200, and the bot's work behind it done. */
    const command = async (text: string) => {
      const res = await postSigned(
        `http://127.0.0.1:${bot.port}/slack/events`,
        SIGNING_SECRET,
        slashBody(slack, text),
      );
      expect(res.status).toBe(200);
      await bot.bot.idle();
    };
    await command('help');
    expect(slack.ephemerals().at(-1)?.text).toMatch(/\/harbor/);
    // Bolt's authorization used the ids the check gave it.
    expect(authTests()).toBe(1);
    // A preview in the channel (its Slack budget is the token's workspace's) that waits for an
    // approver group's member (an org-wide install's lookups need a team): the check's answer
    // serves both, so they do not ask again.
    await command('promote game-server:1.2.0 from dev to prod');
    expect(slack.calls.filter((c) => c.method === 'usergroups.users.list').length).toBeGreaterThan(0);
    expect(slack.calls.filter((c) => c.method === 'chat.postMessage').length).toBeGreaterThan(0);
    expect(authTests()).toBe(1);
  } finally {
    await bot.stop();
  }
});

it('fails the start on a token Slack refuses, saying what to do', async () => {
  const config = await e2eConfig({ slackApiUrl: slack.apiUrl, sim, dataDir });
  config.slack.botToken = 'xoxb-not-the-installed-one';
  const logs = createMemoryLogger();
  const failure = await startBot(config, logs, { clientOptions: { retryConfig: { retries: 0 } } }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(failure).toBeDefined();
  expect(describeStartFailure(failure, [config.slack.botToken])).toMatch(
    /^Slack rejected SLACK_BOT_TOKEN \(invalid_auth\)\. Copy the Bot User OAuth Token again/,
  );
});
