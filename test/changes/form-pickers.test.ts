/**
 * The form queries answer with picker data (changes/form-pickers.ts), read
 * from a real simulator: the fields a modal shows and needs, and none of the
 * API object around them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startWorld, type World } from '../slack/modals/helpers.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.sim.stop());

const q = () => world.deps.queries;

describe('form queries', () => {
  it('give an ArmadaSet its regions with their region types and counts', async () => {
    const arena = (await q().armadaSetsIn('dev'))?.find((s) => s.name === 'arena');
    expect(arena).toEqual({
      kind: 'ArmadaSet',
      name: 'arena',
      regions: [
        {
          region: 'eu-central',
          types: [{ name: 'baremetal', minReplicas: 4, bufferSize: 2, maxReplicas: 12 }],
        },
        { region: 'us-west', types: [{ name: 'cloud', minReplicas: 2, bufferSize: 1, maxReplicas: 8 }] },
      ],
      containers: [
        { name: 'game-server', branch: 'dev', image: expect.any(String), args: ['--mode', 'arena'] },
      ],
    });
  });

  it('give an Armada its one region, and the ArmadaSet that owns it', async () => {
    const armadas = (await q().armadasIn('dev')) ?? [];
    const duel = armadas.find((a) => a.name === 'duel');
    expect(duel?.owner).toBeUndefined();
    expect(duel?.regions.map((r) => r.types.map((t) => t.name))).toEqual([['baremetal', 'cloud']]);
    expect(armadas.filter((a) => a.owner === 'arena').length).toBeGreaterThan(0);
  });

  it('tell the vessels a Formation owns from the standalone ones', async () => {
    const vessels = (await q().vesselsIn('dev')) ?? [];
    expect(vessels.find((v) => v.name === 'duel-1')?.standalone).toBe(true);
    expect(vessels.find((v) => v.name === 'lobby-1')?.standalone).toBe(false);
    expect(await q().vesselsIn('nowhere')).toBeUndefined();
  });

  it('give regions their types with the scheduling strategy, images their name and image:tag', async () => {
    const [usWest] = (await q().regions('dev')).filter((r) => r.name === 'us-west');
    expect(usWest).toEqual({
      name: 'us-west',
      displayName: 'US West',
      types: [
        { name: 'baremetal', scheduling: 'Packed' },
        { name: 'cloud', scheduling: 'Distributed' },
      ],
    });
    const images = await q().images('dev');
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(Object.keys(image).sort()).toEqual(['image', 'name', 'tag']);
  });

  it('give a Formation its vessel names and template containers', async () => {
    const lobby = await q().formation('dev', 'lobby');
    expect(lobby.vessels).toEqual(['lobby-1', 'lobby-2']);
    expect(lobby.containers.map((c) => c.name)).toEqual(['game-server']);
  });
});
