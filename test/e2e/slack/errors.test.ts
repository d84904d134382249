/**
 * What users are told when something goes wrong, end to end: usage for typos
 * and missing arguments, the hosting API refusing (403, naming the
 * permission), not finding (404), failing (500) or being unreachable; and
 * that no answer ever carries a stack trace or a secret.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { DEMO_PASSWORD, DEMO_USERNAME, FULL_PERMISSIONS } from '../../../src/simulator/index.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_BOT, TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { ALICE, type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { buttonIds, current, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  expectNothingLeaked();
  await h.stop();
});

/** Everything the bot showed anyone in these tests: no stack frames, no secrets. */
function expectNothingLeaked(): void {
  const everything = [
    ...h.slack.ephemerals().map(shown),
    ...h.slack.channelMessages(TEST_CHANNEL.id).map(shown),
    ...h.slack.callsTo('views.update').map((c) => JSON.stringify(c.body.view)),
  ].join('\n');
  expect(everything).not.toMatch(/\bat .+:\d+:\d+/);
  expect(everything).not.toMatch(/\n\s+at /);
  for (const secret of [h.sim.token, SIGNING_SECRET, TEST_BOT.token, DEMO_PASSWORD]) {
    expect(everything).not.toContain(secret);
  }
}

/** The demo service account without `method` on `resource`, as an admin might have left it. */
function revoke(resource: keyof typeof FULL_PERMISSIONS, method: string): void {
  const permissions = Object.fromEntries(
    Object.entries(FULL_PERMISSIONS).map(([r, methods]) => [
      r,
      r === resource ? methods.filter((m) => m !== method) : [...methods],
    ]),
  );
  h.sim.addServiceAccount({
    name: DEMO_USERNAME,
    password: DEMO_PASSWORD,
    tokens: [h.sim.token],
    permissions,
  });
}

const lastEphemeral = () => h.ephemeralTexts(ALICE).at(-1) ?? '';

describe('usage', () => {
  it('a typo of a command gets "did you mean" with the corrected command', async () => {
    await h.slash('vesels dev');
    expect(lastEphemeral()).toContain('`vesels` is not a command.');
    expect(lastEphemeral()).toContain('Did you mean `/harbor vessels dev`?');
    expect(h.sim.requests).toHaveLength(0);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('a missing argument names it and shows the form and an example', async () => {
    await h.slash('vessels');
    expect(lastEphemeral()).toContain('`vessels` is missing `&lt;env&gt;`.');
    expect(lastEphemeral()).toContain('Usage: /harbor vessels &lt;env&gt;');
    expect(lastEphemeral()).toContain('Example: /harbor vessels dev');
    expect(h.sim.requests).toHaveLength(0);
  });
});

describe('the hosting API refuses (403)', () => {
  it('on a read: says the service account lacks which permission', async () => {
    revoke('VESSELS', 'GET');
    await h.slash('vessels dev');
    expect(lastEphemeral()).toContain('lacks a permission');
    expect(lastEphemeral()).toContain('lacks GET permission on VESSELS');
    expect(lastEphemeral()).toContain('Ask an admin');
  });

  it('on a write after Confirm: the change message fails, naming the permission; nothing changed', async () => {
    revoke('REGIONS', 'PATCH');
    await h.slash('region scheduling dev eu-central baremetal Distributed');
    const preview = h.lastMessage();
    await h.click(preview, CHANGE_ACTIONS.confirm);
    const failed = current(h, preview);
    expect(failed.text).toMatch(/^Failed/);
    expect(shown(failed)).toContain('lacks PATCH permission on REGIONS');
    expect(shown(failed)).toMatch(/nothing was changed/i);
    expect(buttonIds(failed)).toEqual([]);
    const scheduling = h.sim.state.getRegion('dev', 'eu-central')?.spec.types[0]?.template?.scheduling;
    expect(scheduling).toBe('Packed');
  });

  it('an injected 403 on a read still reads as a refusal, not an internal error', async () => {
    h.sim.setFaults([{ method: 'GET', path: '/api/core/v1/environments/*/regions/*', status: 403 }]);
    await h.slash('region show dev eu-central');
    expect(lastEphemeral()).toMatch(/^The hosting API refused/);
    expect(lastEphemeral()).not.toMatch(/internal error/);
  });
});

describe('not found (404)', () => {
  it('an unknown formation is named with its environment', async () => {
    await h.slash('formation show dev arena');
    expect(h.ephemeralTexts(ALICE)).toEqual([
      'No formation `arena` in environment `dev`. Formations in dev: `lobby`.',
    ]);
  });

  it('adding to an unknown formation says what was not found and posts no preview', async () => {
    await h.slash('formation add dev nowhere lobby-3 eu-central');
    expect(lastEphemeral()).toBe('No formation `nowhere` in environment `dev`. Formations in dev: `lobby`.');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });
});

describe('the hosting API fails', () => {
  it('a dropped connection on a read: unreachable, nothing was changed', async () => {
    h.sim.setFaults([
      { method: 'GET', path: '/api/formation/v1/environments/dev/vessels', dropConnection: true },
    ]);
    await h.slash('vessels dev');
    expect(lastEphemeral()).toMatch(/^The hosting API is unreachable \(.+\); nothing was changed\.$/);
    // Reads are retried before giving up.
    expect(h.sim.countRequests('GET', '/api/formation/v1/environments/dev/vessels')).toBeGreaterThan(1);
  });

  it('a 500 on a read is reported with its status, not as a crash', async () => {
    h.sim.setFaults([
      { method: 'GET', path: '/api/formation/v1/environments/dev/formations/*', status: 500 },
    ]);
    await h.slash('formation show dev lobby');
    expect(lastEphemeral()).toMatch(/^The hosting API failed \(500/);
  });

  it('a failure while a modal loads is shown in the modal, which stays closable', async () => {
    h.sim.setFaults([{ method: 'GET', path: '/api/core/v1/environments/dev/regions', status: 403 }]);
    await h.slash('vessel create dev');
    const update = h.slack.callsTo('views.update').at(-1);
    expect(JSON.stringify(update?.body.view)).toMatch(/refused/);
    expect(JSON.stringify(update?.body.view)).toContain('"close"');
  });
});
