/**
 * Our API client against the simulator over loopback: the same documented
 * flows as the raw-HTTP test, plus the guarded Formation removal surviving a
 * Formation changed between its read and its patch.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import fetch from 'node-fetch';
import { createGameFabricClient, type GameFabricClient } from '../../src/gamefabric/client.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { createStandaloneVessel } from '../support/standalone-vessel.js';

let sim: Simulator;
let clock: ManualClock;
let client: GameFabricClient;

beforeEach(async () => {
  clock = new ManualClock();
  sim = await startSimulator({ port: 0, clock, stepMs: 1000, terminationMs: 2000, logLinesPerSecond: 0 });
  client = createGameFabricClient({ baseUrl: sim.url, auth: { token: sim.token }, clock });
});
afterEach(() => sim.stop());

describe('client flows against the simulator', () => {
  it('promotes an image by seed rule 4 and the copy lands in the target branch', async () => {
    const { imageName, alreadyExisted } = await client.promoteImage({
      image: 'game-server',
      tag: '1.2.0',
      sourceBranch: 'dev',
      targetBranch: 'prod',
      promotionName: randomUUID(),
    });
    expect(alreadyExisted).toBe(false);
    expect(imageName).toBe((await client.findImage('dev', 'game-server', '1.2.0')).metadata.name);
    const copy = await client.findImage('prod', 'game-server', '1.2.0');
    expect(copy.metadata.name).not.toBe(imageName);
    await expect(client.findImage('prod', 'game-server', '7.7.7')).rejects.toThrow(
      'no such image game-server:7.7.7 in branch prod',
    );
  });

  it('creates a vessel, sees it scheduled, follows its logs, deletes it and sees it go', async () => {
    await createStandaloneVessel(client, 'dev', 'flow-1');
    expect((await client.getVessel('dev', 'flow-1')).status?.state).toBe('Pending');
    await clock.advance(1000);
    const listed = (await client.listVessels('dev')).find((v) => v.metadata.name === 'flow-1');
    expect(listed?.status?.state).toBe('Scheduled');
    await clock.advance(3000);

    const controller = new AbortController();
    const lines: string[] = [];
    const reading = (async () => {
      for await (const line of client.streamVesselLogs('dev', 'flow-1', { signal: controller.signal })) {
        lines.push(line);
        if (lines.includes('second & <last>')) controller.abort();
      }
    })();
    await sim.whenLogStreams(1);
    sim.emitLogLines('dev', 'flow-1', ['first', 'second & <last>']);
    await reading;
    expect(lines.slice(-2)).toEqual(['first', 'second & <last>']);

    await client.deleteVessel('dev', 'flow-1');
    expect((await client.getVessel('dev', 'flow-1')).status?.state).toBe('Terminating');
    await clock.advance(2000);
    await expect(client.getVessel('dev', 'flow-1')).rejects.toMatchObject({ status: 404 });
  });

  it('appends vessels with and without overrides; the controller creates and removes them', async () => {
    const override = (await client.findImage('dev', 'game-server', '1.0.0')).metadata.name;
    await client.appendVesselToFormation('dev', 'lobby', { name: 'lobby-7', region: 'eu-central' });
    const { index } = await client.appendVesselToFormation('dev', 'lobby', {
      name: 'lobby-8',
      region: 'eu-central',
      override: { containers: [{ name: 'game-server', image: override, args: ['--ranked'] }] },
    });
    expect(index).toBe(3);
    const plain = await client.getVessel('dev', 'lobby-7');
    const overridden = await client.getVessel('dev', 'lobby-8');
    expect(plain.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Formation', name: 'lobby' });
    expect(overridden.spec.template.spec.containers[0]).toMatchObject({
      image: override,
      args: ['--ranked'],
    });
    expect(plain.spec.template.spec.containers[0]?.image).not.toBe(override);

    const { removedIndex } = await client.removeVesselFromFormation('dev', 'lobby', 'lobby-7');
    expect(removedIndex).toBe(2);
    expect((await client.getVessel('dev', 'lobby-7')).status?.state).toBe('Terminating');
    await clock.advance(2000);
    await expect(client.getVessel('dev', 'lobby-7')).rejects.toMatchObject({ status: 404 });
  });

  it('creates a region with Distributed scheduling and switches a type back to Packed', async () => {
    await client.createRegion('dev', {
      metadata: { name: 'us-east', environment: 'dev' },
      spec: { types: [{ name: 'cloud', locations: ['iad-1'], template: { scheduling: 'Distributed' } }] },
    });
    expect((await client.getRegion('dev', 'us-east')).spec.types[0]?.template?.scheduling).toBe(
      'Distributed',
    );
    const { previous } = await client.setRegionTypeScheduling('dev', 'us-east', 'cloud', 'Packed');
    expect(previous).toBe('Distributed');
    expect((await client.getRegion('dev', 'us-east')).spec.types[0]?.template?.scheduling).toBe('Packed');
  });
});

describe('remove-by-name with the Formation changed between read and patch', () => {
  /** A client whose fetch lets `meddle` change the Formation right after the client's first read of it. */
  function meddlingClient(meddle: () => Promise<void>): GameFabricClient {
    let meddled = false;
    const interposed = (async (url: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
      const res = await fetch(url, init);
      if (!meddled && (init?.method ?? 'GET') === 'GET' && String(url).endsWith('/formations/lobby')) {
        meddled = true;
        await meddle();
      }
      return res;
    }) as typeof fetch;
    return createGameFabricClient({ baseUrl: sim.url, auth: { token: sim.token }, clock, fetch: interposed });
  }

  it('a concurrent removal of an earlier vessel shifts indexes: the right vessel is still removed', async () => {
    const racer = meddlingClient(() =>
      client.removeVesselFromFormation('dev', 'lobby', 'lobby-1').then(() => {}),
    );
    const { attempts } = await racer.removeVesselFromFormation('dev', 'lobby', 'lobby-2');
    expect(attempts).toBe(2);
    expect((await client.getFormation('dev', 'lobby')).spec.vessels).toEqual([]);
  });

  it('a concurrent append does not make it remove the new vessel', async () => {
    const racer = meddlingClient(async () => {
      await client.removeVesselFromFormation('dev', 'lobby', 'lobby-1');
      await client.appendVesselToFormation('dev', 'lobby', { name: 'lobby-9', region: 'eu-central' });
    });
    await racer.removeVesselFromFormation('dev', 'lobby', 'lobby-2');
    expect((await client.getFormation('dev', 'lobby')).spec.vessels.map((v) => v.name)).toEqual(['lobby-9']);
  });

  it('the vessel removed by someone else meanwhile: it says so instead of removing another', async () => {
    const racer = meddlingClient(() =>
      client.removeVesselFromFormation('dev', 'lobby', 'lobby-2').then(() => {}),
    );
    await expect(racer.removeVesselFromFormation('dev', 'lobby', 'lobby-2')).rejects.toThrow(
      'vessel lobby-2 is not in formation lobby (environment dev)',
    );
    expect((await client.getFormation('dev', 'lobby')).spec.vessels.map((v) => v.name)).toEqual(['lobby-1']);
  });
});
