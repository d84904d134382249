/**
 * ArmadaGameServerStates in the simulator: served only under `serverStates`
 * (404 otherwise, as an API that does not serve them), per Armada, with
 * counts by state as a whole, per region type and per revision; a build that
 * cannot start shows as new servers that never become Ready (Unhealthy when
 * it crashes), on both fleet-count shapes. And a Vessel whose image crashes
 * never reaches Running: Starting for the documented 10 minutes, then
 * rescheduled (Terminating, Pending) and round again.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Armada } from '../../src/api-shapes/armada-resources.js';
import type { Vessel } from '../../src/api-shapes/resources.js';
import { callJson, img, type List, startTestSim, type TestSim, VESSELS, vesselPayload } from './helpers.js';

const STATES = '/api/armada/v1/environments/dev/armadagameserverstates';
const ARMADAS = '/api/armada/v1/environments/dev/armadas';

interface Item {
  metadata: { name: string; environment: string };
  status: {
    gameServers: Record<string, number>;
    regionTypes: { name: string; gameServers: Record<string, number> }[];
    revisions: { revision?: string; images: string[]; gameServers: Record<string, number> }[];
  };
}

const sims: TestSim[] = [];
afterEach(async () => {
  for (const t of sims.splice(0)) await t.sim.stop();
});
async function sim(options: Parameters<typeof startTestSim>[0]): Promise<TestSim> {
  const t = await startTestSim(options);
  sims.push(t);
  return t;
}

const duelOf = async (t: TestSim) =>
  (await callJson<List<Item>>(t.sim, STATES, 200)).items.find((i) => i.metadata.name === 'duel') as Item;

describe('armadagameserverstates', () => {
  it('is not served without the flag: 404 on the per-environment and the documented path', async () => {
    const t = await sim({ stepMs: 1000 });
    await callJson(t.sim, STATES, 404);
    await callJson(t.sim, '/api/armada/v1/armadagameserverstates', 404);
  });

  for (const fleetCounts of [true, false]) {
    it(`counts each Armada's servers by state, per type and revision (fleet counts ${fleetCounts ? 'on' : 'off'})`, async () => {
      const t = await sim({ stepMs: 1000, serverStates: true, fleetCounts });
      const list = await callJson<List<Item>>(t.sim, STATES, 200);
      expect(list.items.map((i) => i.metadata.name)).toEqual(['arena-eu-central', 'arena-us-west', 'duel']);
      const duel = await duelOf(t);
      const image = (await callJson<Armada>(t.sim, `${ARMADAS}/duel`, 200)).spec.template.spec.containers[0]
        ?.image;
      expect(duel.metadata.environment).toBe('dev');
      expect(duel.status.gameServers).toEqual({
        Ready: 4,
        Allocated: 1,
        Starting: 0,
        Scheduled: 0,
        Unhealthy: 0,
        Error: 0,
      });
      expect(
        duel.status.regionTypes.map((r) => [r.name, r.gameServers.Ready, r.gameServers.Allocated]),
      ).toEqual([
        ['baremetal', 2, 1],
        ['cloud', 2, 0],
      ]);
      expect(duel.status.revisions).toEqual([
        expect.objectContaining({ images: [image], gameServers: expect.objectContaining({ Ready: 4 }) }),
      ]);
      // The documented path lists every environment's, each naming its environment.
      const all = await callJson<List<Item>>(t.sim, '/api/armada/v1/armadagameserverstates', 200);
      expect(new Set(all.items.map((i) => i.metadata.environment))).toEqual(new Set(['dev', 'prod']));
    });

    it(`a crashing build: its new servers never become Ready, the old ones keep running (fleet counts ${fleetCounts ? 'on' : 'off'})`, async () => {
      const t = await sim({ stepMs: 1000, serverStates: true, fleetCounts });
      const crashing = img('dev', 'game-server', '1.0.0');
      t.sim.setCrashingImage('dev', crashing, 'exit code 137 (OOMKilled)');
      await callJson(t.sim, `${ARMADAS}/duel`, 200, {
        method: 'PATCH',
        contentType: 'application/json-patch+json',
        body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: crashing }],
      });
      t.clock.advance(60_000);
      const duel = await duelOf(t);
      const [next, old] = duel.status.revisions;
      expect(next?.images).toEqual([crashing]);
      expect(next?.gameServers).toMatchObject({ Ready: 0, Allocated: 0, Unhealthy: 2 });
      expect(old?.gameServers).toMatchObject({ Ready: 4, Allocated: 1 });
      // Fixed: the rollout goes through and every server runs the new build.
      t.sim.setCrashingImage('dev', crashing, undefined);
      t.clock.advance(20_000);
      const fixed = await duelOf(t);
      expect(fixed.status.revisions[0]?.gameServers).toMatchObject({ Ready: 4, Allocated: 1, Unhealthy: 0 });
      expect(fixed.status.revisions).toHaveLength(1);
    });
  }
});

describe('a Vessel whose image crashes on start', () => {
  it('never runs: Starting for 10 minutes, then rescheduled (Terminating, Pending), and round again', async () => {
    const t = await sim({ stepMs: 1000, terminationMs: 2000 });
    const crashing = img('dev', 'game-server', '1.0.0');
    t.sim.setCrashingImage('dev', crashing, 'exit 1');
    const payload = vesselPayload('stuck');
    const container = payload.spec.template.spec.containers[0];
    if (container) container.image = crashing;
    await callJson(t.sim, VESSELS, 201, { method: 'POST', body: payload });
    const state = async () => (await callJson<Vessel>(t.sim, `${VESSELS}/stuck`, 200)).status?.state;
    t.clock.advance(3000);
    expect(await state()).toBe('Starting');
    t.clock.advance(9 * 60_000);
    expect(await state()).toBe('Starting');
    t.clock.advance(60_000);
    const rescheduled = await callJson<Vessel>(t.sim, `${VESSELS}/stuck`, 200);
    expect(rescheduled.status).toEqual({
      state: 'Terminating',
      reason: 'Starting timeout: rescheduled to another site (exit 1)',
    });
    t.clock.advance(2000);
    expect(await state()).toBe('Pending');
    t.sim.setCrashingImage('dev', crashing, undefined);
    t.clock.advance(4000);
    expect(await state()).toBe('Running');
  });
});
