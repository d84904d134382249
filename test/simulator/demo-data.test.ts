import { afterEach, describe, expect, it } from '@jest/globals';
import type { Image } from '../../src/api-shapes/resources.js';
import { ManualClock } from '../../src/runtime/clock.js';
import {
  demoData,
  internalImageName,
  parseSimulatorData,
  type Simulator,
  startSimulator,
} from '../../src/simulator/index.js';
import { callJson, IMAGES, type List } from './helpers.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

describe('demo data', () => {
  it('has stable internal image names that docs can rely on', () => {
    expect(internalImageName('dev', 'game-server', '1.1.0')).toBe('img-e916423b');
    const dev = demoData().branches.dev ?? [];
    expect(dev.map((i) => `${i.spec.image}:${i.spec.tag}`)).toEqual([
      'game-server:1.0.0',
      'game-server:1.1.0',
      'game-server:1.2.0',
      'sidecar-metrics:0.3.0',
    ]);
    expect(demoData().branches.prod?.map((i) => i.metadata.name)).toEqual([
      internalImageName('prod', 'game-server', '1.0.0'),
    ]);
  });

  it('starts with running Formation Vessels, a two-type Region and a Synced Formation', async () => {
    sim = await startSimulator({ clock: new ManualClock() });
    expect(sim.state.listVessels('dev').map((v) => [v.metadata.name, v.status?.state])).toEqual([
      ['duel-1', 'Running'],
      ['lobby-1', 'Running'],
      ['lobby-2', 'Running'],
    ]);
    expect(sim.state.getVessel('dev', 'lobby-2')?.spec.template.spec.containers[0]?.args).toEqual([
      '--mode',
      'lobby',
      '--max-players',
      '64',
    ]);
    expect(
      sim.state.getRegion('dev', 'eu-central')?.spec.types.map((t) => [t.name, t.template?.scheduling]),
    ).toEqual([
      ['baremetal', 'Packed'],
      ['cloud', 'Distributed'],
    ]);
    expect(sim.state.getFormation('dev', 'lobby')?.status).toEqual({ state: 'Synced' });
    expect(sim.state.listVessels('prod').map((v) => v.metadata.name)).toEqual(['arena-1']);
    expect(() => sim?.state.listVessels('qa')).toThrow('environment "qa" not found');
  });
});

describe('custom data', () => {
  const minimal = {
    branches: { main: [{ spec: { image: 'srv', tag: '1' } }] },
    environments: {
      play: {
        regions: [
          {
            apiVersion: 'core/v1',
            kind: 'Region',
            metadata: { name: 'home', environment: 'play' },
            spec: { types: [{ name: 't', locations: ['here'] }] },
          },
        ],
        vessels: [
          {
            apiVersion: 'formation/v1',
            kind: 'Vessel',
            metadata: { name: 'solo', environment: 'play' },
            spec: {
              region: 'home',
              template: {
                spec: {
                  containers: [{ name: 'srv', branch: 'main', image: internalImageName('main', 'srv', '1') }],
                },
              },
            },
          },
        ],
      },
    },
  };

  it('loads a data file, names images by default, and keeps the demo token working', async () => {
    sim = await startSimulator({ clock: new ManualClock(), data: parseSimulatorData(minimal) });
    const images = await callJson<List<Image>>(sim, `${IMAGES}/main`, 200);
    expect(images.items[0]?.metadata.name).toBe(internalImageName('main', 'srv', '1'));
    expect(sim.state.getVessel('play', 'solo')?.status).toEqual({ state: 'Running' });
  });

  it('fails at start naming the object and field of a bad entry', async () => {
    const bad = structuredClone(minimal);
    type Entry = (typeof bad.environments.play.vessels)[number];
    (bad.environments.play.vessels[0] as Entry).spec.region = 'away';
    await expect(startSimulator({ data: parseSimulatorData(bad) })).rejects.toThrow(
      /environments\.play\.vessels\[0\].*spec\.region/,
    );
  });

  it('rejects a data file of the wrong shape', () => {
    expect(() => parseSimulatorData({ branches: [] })).toThrow(/invalid simulator data: branches/);
  });

  it('rejects invalid option values', async () => {
    await expect(startSimulator({ stepMs: 0 })).rejects.toThrow(RangeError);
    await expect(startSimulator({ logLinesPerSecond: -1 })).rejects.toThrow(/logLinesPerSecond/);
  });
});
