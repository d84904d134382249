/**
 * Reads answer to the same authorization as changes (issue 17, point 3). A
 * policy with `workspaces:` (the documented way to admit a second workspace)
 * used to refuse every read and `logs --follow` for everyone, because reads
 * asked the policy without the asker's workspace; and the refusal printed the
 * server's policy file path.
 */
import { afterEach, expect, it } from '@jest/globals';
import { DEFAULT_POLICY_YAML } from '../../../src/policy/default-policy.js';
import { TEST_TEAM } from '../../../src/workspace/identity.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';

const OTHER_TEAM = 'T0OTHERORG';
const WITH_WORKSPACES = `${DEFAULT_POLICY_YAML}\nworkspaces: [${TEST_TEAM.id}, ${OTHER_TEAM}]\n`;

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

it.each([
  ['images dev', /^2 images, 4 tags in branch \*dev\*/],
  ['vessels dev', /^3 vessels in environment \*dev\*/],
  ['formation show dev lobby', /^Formation lobby in dev: 2 vessels/],
  ['region show dev eu-central', /^Region eu-central in dev: 2 types/],
  ['logs dev lobby-1 --lines 2', /^Last 2 log lines of lobby-1 \(dev\)/],
])('`%s` is answered for a listed workspace', async (command, answer) => {
  h = await startBotHarness({ policy: WITH_WORKSPACES });
  await h.slash(command);
  const told = h.ephemeralTexts(ALICE);
  expect(told).toHaveLength(1);
  expect(told[0]).toMatch(answer);
  expect(told[0]).not.toMatch(/not one the policy allows/);
});

it('`logs --follow` starts a tail for a listed workspace', async () => {
  h = await startBotHarness({ policy: WITH_WORKSPACES });
  await h.slash('logs dev lobby-1 --follow');
  expect(h.ephemeralTexts(ALICE)).toEqual([]);
  expect(h.lastMessage().text).toMatch(/lobby-1/);
});

it('a read from an unlisted workspace is refused by name, never with a server path', async () => {
  h = await startBotHarness({ policy: `${DEFAULT_POLICY_YAML}\nworkspaces: [${OTHER_TEAM}]\n` });
  await h.slash('vessels dev');
  const told = h.ephemeralTexts(ALICE);
  expect(told).toHaveLength(1);
  expect(told[0]).toBe(
    `Your Slack workspace (${TEST_TEAM.id}) is not one the policy allows: it lists one workspace under \`workspaces\`.`,
  );
  expect(told[0]).not.toMatch(/policy\.yml|\//);
});

it('a command no rule covers names the missing rule, not the policy file', async () => {
  h = await startBotHarness({
    policy: 'version: 1\nrules:\n  - name: promotions-only\n    operations: [image.promote]\n',
  });
  await h.slash('vessels dev');
  const told = h.ephemeralTexts(ALICE);
  expect(told).toHaveLength(1);
  expect(told[0]).toBe(
    'No policy rule lets anyone list vessels in environment dev. Ask whoever maintains the policy to add a rule for it.',
  );
});
