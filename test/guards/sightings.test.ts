/**
 * What a guard sees, each trigger naming what it saw (issue 42), read from
 * the simulator over HTTP through the real client: a Scale to Zero fleet
 * whose build does not start panics (ScaleUpPanicked, due at once); a Site
 * down leaves the fleet Degraded; a Vessel of the target in Error; new
 * servers that never become Ready, only where game server counts are served.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createGameFabricClient } from '../../src/gamefabric/client.js';
import { sightings } from '../../src/guards/sightings.js';
import type { Touched } from '../../src/guards/touched.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { CRASHING_IMAGE, crashDuel, DUEL_SITE, failVessel, siteDown } from '../watches/sim-control.js';

const DUEL: Touched = { kind: 'Armada', environment: 'dev', name: 'duel', image: CRASHING_IMAGE };

describe('sightings', () => {
  let sim: Simulator;
  let clock: ManualClock;
  afterEach(async () => {
    await sim.stop();
  });
  const start = async (serverStates: boolean) => {
    clock = new ManualClock(Date.UTC(2026, 0, 1, 14, 0, 0));
    sim = await startSimulator({ clock, stepMs: 1000, serverStates, fleetCounts: false });
    return createGameFabricClient({ baseUrl: sim.url, auth: { token: sim.token }, clock });
  };

  it('names ScaleUpPanicked, due at once', async () => {
    const client = await start(false);
    await crashDuel(sim, true);
    await clock.advance(60_000);
    const { seen, watched } = await sightings(client, [DUEL]);
    expect(seen).toEqual([
      expect.objectContaining({
        key: 'dev/Armada/duel/ScaleUpPanicked',
        seen: expect.stringMatching(
          /^Armada duel: ScaleUpPanicked \(Scale to Zero scaled region type cloud up in a panic/,
        ),
        now: true,
      }),
    ]);
    expect(watched).toEqual(['dev|Armada|duel']);
  });

  it('names the new servers that do not become Ready where counts are served, and nothing without them', async () => {
    const withCounts = await start(true);
    await crashDuel(sim, false);
    await clock.advance(60_000);
    const seen = (await sightings(withCounts, [DUEL])).seen;
    expect(seen.map((s) => s.key)).toContain('dev/Armada/duel/NewNotReady');
    expect(seen.find((s) => s.key === 'dev/Armada/duel/NewNotReady')?.seen).toMatch(
      /^Armada duel: its new servers do not become Ready \(new build: .*ArmadaGameServerStates\)$/,
    );
    await sim.stop();
    // Neither game server states nor status counts: a build that does not start is not seen.
    const blind = await start(false);
    await crashDuel(sim, false);
    await clock.advance(60_000);
    expect((await sightings(blind, [DUEL])).seen).toEqual([]);
  });

  it('names the fleet Degraded, with its reason', async () => {
    const client = await start(false);
    await siteDown(sim, DUEL_SITE, 'connection lost');
    const { seen } = await sightings(client, [{ ...DUEL, image: 'unused' }]);
    expect(seen).toEqual([
      expect.objectContaining({
        key: 'dev/Armada/duel/Degraded',
        seen: expect.stringMatching(/^Armada duel is Degraded \(/),
      }),
    ]);
  });

  it('names a Vessel of the target in Error, and those of a Formation', async () => {
    const client = await start(false);
    await failVessel(sim, 'dev', 'duel-1', 'OOMKilled');
    await failVessel(sim, 'dev', 'lobby-1', 'exit code 3');
    const { seen, watched } = await sightings(client, [
      { kind: 'Vessel', environment: 'dev', name: 'duel-1', image: 'unused' },
      { kind: 'Formation', environment: 'dev', name: 'lobby', image: 'unused' },
    ]);
    expect(seen.map((s) => s.seen)).toEqual([
      'Vessel duel-1 is in Error (OOMKilled)',
      'Vessel lobby-1 of Formation lobby is in Error (exit code 3)',
    ]);
    expect(watched).toEqual([
      'dev|Formation|lobby',
      'dev|Vessel|duel-1',
      'dev|Vessel|lobby-1',
      'dev|Vessel|lobby-2',
    ]);
  });
});
