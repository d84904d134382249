/**
 * Promotion end to end: signed slash commands and clicks into Bolt's HTTP
 * receiver, the simulator as the hosting API, the Slack stand-in as Slack.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { ALICE, BOB, type BotHarness, startBotHarness } from './bot-harness.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const promotions = () => h.sim.countRequests('POST', '/api/container/v1/imagepromotions');
const prodHas = (tag: string) =>
  h.sim.state.listImages('prod').some((i) => i.spec.image === 'game-server' && i.spec.tag === tag);

describe('promote', () => {
  it('acks the command at once, posts a public preview, and promotes on Confirm', async () => {
    const res = await h.slash('promote game-server:1.2.0 from dev to staging');
    expect(res.status).toBe(200);
    const preview = h.lastMessage();
    expect(preview.text).toContain('game-server:1.2.0');
    expect(JSON.stringify(preview.blocks)).toContain(CHANGE_ACTIONS.confirm);
    expect(promotions()).toBe(0);

    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(promotions()).toBe(1);
    const done = h.slack.message(TEST_CHANNEL.id, preview.ts);
    expect(done?.text).toBe('Done: Promoted game-server:1.2.0 from dev to staging');
    expect(JSON.stringify(done?.blocks)).not.toContain(CHANGE_ACTIONS.confirm);
    expect(JSON.stringify(done?.blocks)).toContain(ALICE.id);
  });

  it('into a protected branch needs another person: self-approval refused, an SRE approves', async () => {
    await h.slash('promote game-server:1.2.0 from dev to prod');
    const preview = h.lastMessage();
    expect(JSON.stringify(preview.blocks)).toContain(CHANGE_ACTIONS.approve);
    expect(JSON.stringify(preview.blocks)).toContain('S0SRE');

    await h.click(preview, CHANGE_ACTIONS.approve, ALICE);
    expect(promotions()).toBe(0);
    expect(h.ephemeralTexts(ALICE).join('\n')).toMatch(/approve/i);
    expect(prodHas('1.2.0')).toBe(false);

    await h.click(preview, CHANGE_ACTIONS.approve, BOB);
    expect(promotions()).toBe(1);
    expect(prodHas('1.2.0')).toBe(true);
    const done = h.slack.message(TEST_CHANNEL.id, preview.ts);
    expect(JSON.stringify(done?.blocks)).toContain(BOB.id);
    expect(JSON.stringify(done?.blocks)).not.toContain(CHANGE_ACTIONS.approve);
  });

  it('applies a double-clicked Confirm once, and sends the clicker nothing more', async () => {
    await h.slash('promote game-server:1.1.0 from dev to staging');
    const preview = h.lastMessage();
    await Promise.all([h.click(preview, CHANGE_ACTIONS.confirm), h.click(preview, CHANGE_ACTIONS.confirm)]);
    expect(promotions()).toBe(1);
    // One message per fact (issue 18 point 12): the change message in view says Applying, then Done.
    expect(h.ephemeralTexts(ALICE)).toEqual([]);
    // The click that lost the race never draws the change over the winner's final rewrite.
    const final = h.slack.message(TEST_CHANNEL.id, preview.ts);
    expect(final?.text).toMatch(/^Done/);
    expect(JSON.stringify(final?.blocks)).not.toContain(CHANGE_ACTIONS.confirm);
  });

  it('rejects a forged signature with 401 and does nothing', async () => {
    const { postSigned, slashCommandBody } = await import('../../../src/workspace/signing.js');
    const body = slashCommandBody({ text: 'promote game-server:1.2.0 from dev to staging' });
    const startupCalls = h.slack.calls.length; // auth.test at start-up
    const res = await postSigned(h.eventsUrl, 'e2e-signing-secret-0123456789', body, {
      forgeSignature: true,
    });
    expect(res.status).toBe(401);
    await h.settle();
    // No Web API call and no response_url POST of any kind, nothing shown to anyone, no API call.
    expect(h.slack.calls.slice(startupCalls)).toEqual([]);
    expect(h.slack.ephemerals()).toEqual([]);
    expect(h.slack.channelMessages(TEST_CHANNEL.id)).toEqual([]);
    expect(h.sim.requests).toEqual([]);
  });
});
