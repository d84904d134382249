/**
 * One cause, one alert, through the whole bot (issue 38.6): `/harbor watch
 * dev`, one Site taken down in the simulator (`POST /_sim/sites/<name>`), the
 * watch loop ticked on its own clock: exactly one message in the channel,
 * naming the Site and every fleet behind it (the Armadas duel and
 * arena-eu-central and the ArmadaSet arena), where the per-fleet alerts posted
 * three. A fleet that recovers while the Site is down is edited into the same
 * message; the Site back, the message says every fleet recovered. What
 * changed answers for the fleets behind it.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { ALERT_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { siteDown } from '../../watches/sim-control.js';
import { type BotHarness, startBotHarness } from './bot-harness.js';
import { shown } from './harness-extras.js';

let h: BotHarness;
const clock = new ManualClock(Date.UTC(2026, 0, 1, 14, 0, 0));

beforeAll(async () => {
  h = await startBotHarness({ watch: { clock, manual: true } });
});
afterAll(async () => h.stop());

async function run(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 10_000) {
    await h.running.watcher.tick();
    clock.advance(10_000);
  }
}

const alerts = (): StoredMessage[] =>
  h.slack.channelMessages(TEST_CHANNEL.id).filter((m) => (m.text ?? '').includes('in dev'));

it('posts one alert for a Site down naming every fleet behind it, edits it as they recover', async () => {
  await h.slash('watch dev');
  await run(60_000);
  await siteDown(h.sim, 'fra-bm-1-02', 'connection lost');
  await run(3 * 60_000);
  expect(alerts()).toHaveLength(1);
  const alert = alerts()[0] as StoredMessage;
  expect(alert.text).toBe('Site fra-bm-1-02 in dev is Error: connection lost (3 fleets behind it)');
  expect(shown(alert)).toContain(
    'Fleets behind it (3): Armada `arena-eu-central` (eu-central), Armada `duel` (eu-central), ArmadaSet `arena`',
  );
  await h.click(alert, ALERT_ACTIONS.whatChanged);
  expect(h.ephemeralTexts().at(-1)).toBe('No changes to Site fra-bm-1-02 in dev in 24 h');

  // duel leaves the bare-metal type whose Location holds the Site: the same message says it recovered.
  const res = await fetch(`${h.sim.url}/api/armada/v1/environments/dev/armadas/duel`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${h.sim.token}`, 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({
      spec: { distribution: [{ name: 'cloud', minReplicas: 0, bufferSize: 2, maxReplicas: 20 }] },
    }),
  });
  expect(res.status).toBe(200);
  await run(60_000);
  expect(alerts()).toHaveLength(1);
  const edited = h.slack.channelMessages(TEST_CHANNEL.id).find((m) => m.ts === alert.ts);
  expect(edited?.text).toBe('Site fra-bm-1-02 in dev is Error: connection lost (2 fleets behind it)');
  expect(shown(edited)).toContain('Recovered since: Armada `duel` (eu-central)');

  await siteDown(h.sim, 'fra-bm-1-02');
  await run(3 * 60_000);
  expect(alerts()).toHaveLength(1);
  const closed = h.slack.channelMessages(TEST_CHANNEL.id).find((m) => m.ts === alert.ts);
  expect(closed?.text).toMatch(/^Site fra-bm-1-02 in dev: every fleet behind it recovered after \d+ min$/);
});
