/**
 * Watches through the whole bot (issue 29): `/harbor watch dev` as a signed
 * request, a vessel failed in the simulator, the watch loop ticked on its
 * own ManualClock, one alert posted in the channel through the Slack
 * stand-in; What changed and Mute 1 h answered privately; `/harbor watches`
 * lists it and Home lists it to members of the channel only; recovery edits
 * the same message; `/harbor unwatch dev` ends it.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { ALERT_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { appHomeOpenedBody, postSigned } from '../../../src/workspace/signing.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { failVessel } from '../../watches/sim-control.js';
import { ALICE, BOB, type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { shown } from './harness-extras.js';

const POLICY = `
version: 1
rules:
  - name: reads
    operations: ['*.show', '*.list', logs.read]
  - name: watchers
    operations: [watch.manage]
    requesters: { users: [${ALICE.id}] }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

let h: BotHarness;
const clock = new ManualClock(Date.UTC(2026, 0, 1, 14, 0, 0));

beforeAll(async () => {
  h = await startBotHarness({ policy: POLICY, watch: { clock, manual: true } });
});
afterAll(async () => h.stop());

/** Ticks the watch loop for `ms` of its clock, ten seconds at a time. */
async function run(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 10_000) {
    await h.running.watcher.tick();
    clock.advance(10_000);
  }
}

/** `user` opens the Home tab; resolves once the bot has drawn it. */
async function openHome(user: string): Promise<void> {
  const res = await postSigned(h.eventsUrl, SIGNING_SECRET, appHomeOpenedBody(user, 'home'), {
    contentType: 'application/json',
  });
  expect(res.status).toBe(200);
  await h.settle();
}

const alerts = (): StoredMessage[] =>
  h.slack.channelMessages(TEST_CHANNEL.id).filter((m) => (m.text ?? '').includes('duel-1'));

it('watches, alerts once, answers the buttons, recovers in place, unwatches', async () => {
  await h.slash('watch dev', BOB);
  expect(h.ephemeralTexts(BOB).at(-1)).toMatch(/watchers.*only <@U0ALICE>/);

  await h.slash('watch dev');
  expect(h.ephemeralTexts().at(-1)).toBe('This channel now watches dev');
  await run(60_000);
  await failVessel(h.sim, 'dev', 'duel-1', 'OOMKilled');
  await run(30_000);
  expect(alerts()).toEqual([]); // not settled yet
  await run(2 * 60_000);
  expect(alerts()).toHaveLength(1);
  const alert = alerts()[0] as StoredMessage;
  expect(alert.text).toBe('Vessel duel-1 in dev is Error: OOMKilled');
  const scraped = await h.running.metrics.registry.metrics();
  expect(scraped).toMatch(/^harbor_watch_events_total\{event="posted"\} 1$/m);
  expect(scraped).toMatch(/^harbor_watch_events_total\{event="polled"\} [1-9]\d*$/m);

  await h.click(alert, ALERT_ACTIONS.whatChanged);
  expect(h.ephemeralTexts().at(-1)).toBe('No changes to Vessel duel-1 in dev in 24 h');
  await h.slash('watches');
  expect(h.ephemeralTexts().at(-1)).toBe('This channel watches dev');
  // Home lists the open alerts of the channels a person is in, as Slack says now.
  h.slack.members.set(TEST_CHANNEL.id, [ALICE.id]);
  await openHome(ALICE.id);
  expect(shown(h.slack.homeView(ALICE.id))).toContain('Vessel duel-1: Error');
  await openHome(BOB.id);
  expect(shown(h.slack.homeView(BOB.id))).toContain('No open alerts in your channels.');
  await h.click(alert, ALERT_ACTIONS.mute);
  expect(h.ephemeralTexts().at(-1)).toBe('Muted Vessel duel-1 for an hour');

  await failVessel(h.sim, 'dev', 'duel-1');
  await run(3 * 60_000);
  expect(alerts()).toHaveLength(1);
  const edited = h.slack.channelMessages(TEST_CHANNEL.id).find((m) => m.ts === alert.ts);
  expect(edited?.text).toMatch(/^Vessel duel-1 in dev recovered after \d+ min$/);
  // One edit: the recovery (the mute redraws nothing; its answer is private).
  expect(edited?.history).toHaveLength(1);

  await failVessel(h.sim, 'dev', 'duel-1', 'again');
  await run(3 * 60_000);
  expect(alerts()).toHaveLength(1); // muted here for the hour

  await h.slash('unwatch dev');
  expect(h.ephemeralTexts().at(-1)).toBe(
    'This channel no longer watches dev; alerts already posted stay as they are.',
  );
});
