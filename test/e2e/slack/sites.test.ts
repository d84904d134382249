/**
 * `/harbor sites [<region>]` end to end (issue 38.1): through the real bot
 * against the simulator's documented shape (Sites without a location,
 * Locations listing their Sites): each Site's state, reason and cordon, the
 * Locations that list it and the fleets behind it per environment; a region
 * narrows it; an unknown region names the regions that exist; without the
 * Locations the fleets are said to be unknown, never guessed; environments
 * the policy keeps from the asker are left out and said so.
 */
import { afterEach, expect, it } from '@jest/globals';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { shown } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const last = () =>
  h.slack
    .ephemerals()
    .filter((e) => e.user === ALICE.id)
    .at(-1);

it('lists every Site with its state and the fleets behind it in each environment', async () => {
  h = await startBotHarness();
  h.sim.setSite('fra-bm-1-02', { state: 'Error', reason: 'connection lost' });
  h.sim.setSite('sfo-cloud-1-01', { cordoned: true });
  await h.slash('sites');
  const text = shown(last());
  expect(last()?.text).toBe('7 Sites: 1 not Connected, 1 cordoned · fleets of dev, prod');
  expect(text).toContain(
    '*fra-bm-1-02* · *Error* (connection lost) · Location fra-bm-1 · behind it: dev: Armada `arena-eu-central` (eu-central), Armada `duel` (eu-central), ArmadaSet `arena` (eu-central); prod: Armada `arena-eu-central` (eu-central), ArmadaSet `arena` (eu-central)',
  );
  expect(text).toContain('*sfo-cloud-1-01* · Connected · *cordoned* · Location sfo-cloud-1');
  // ams-bm-1 is in dev's eu-central only.
  expect(text).toContain('*ams-bm-1-01* · Connected · Location ams-bm-1 · behind it: dev: ');
});

it('narrows to a region, and names the regions that exist for one that does not', async () => {
  h = await startBotHarness();
  await h.slash('sites us-west');
  expect(last()?.text).toBe('2 Sites of region us-west: 0 not Connected, 0 cordoned · fleets of dev, prod');
  expect(shown(last())).not.toContain('fra-bm-1');
  await h.slash('sites eu-centrl');
  expect(last()?.text).toBe(
    'No region `eu-centrl` in dev, prod. Did you mean `eu-central`? Regions: `eu-central`, `us-west`.',
  );
});

it('says the fleets behind each Site are unknown when the Locations are refused', async () => {
  h = await startBotHarness();
  h.sim.setFaults([{ method: 'GET', path: '/api/core/v1/locations', status: 403 }]);
  await h.slash('sites');
  const text = shown(last());
  expect(text).toContain(
    'Which fleets are behind each Site is unknown: the Locations could not be read (HTTP 403: not permitted).',
  );
  expect(text).toContain('*fra-bm-1-01* · Connected · fleets behind it unknown');
  expect(text).not.toContain('no fleet behind it');
  expect(text).not.toContain('behind it: dev');
});

it('leaves out the environments the policy keeps from the asker, and says so', async () => {
  h = await startBotHarness({
    policy: `
version: 1
rules:
  - name: dev-only
    operations: [sites.list, armadas.list]
    target: { environment: dev }
`,
  });
  await h.slash('sites');
  expect(last()?.text).toBe('7 Sites: 0 not Connected, 0 cordoned · fleets of dev');
  expect(shown(last())).toContain('Left out: prod (not permitted).');
  expect(shown(last())).not.toContain('prod: Armada');
});
