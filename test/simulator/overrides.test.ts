/**
 * How the simulated controller reads Formation override entries: by name (the
 * seed), by position (real shapes: the provider's override type has no
 * name), and with images dropped (the provider's type has no image).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Formation } from '../../src/api-shapes/resources.js';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { callJson, FORMATIONS, img, type StatusBody, startTestSim, type TestSim } from './helpers.js';

let t: TestSim | undefined;
afterEach(() => t?.sim.stop());

async function start(options: SimulatorOptions): Promise<TestSim> {
  t = await startTestSim({ stepMs: 1000, terminationMs: 2000, ...options });
  return t;
}

/** A Formation with two containers, game-server then sidecar, and one Vessel entry. */
function duo(override: unknown) {
  return {
    apiVersion: 'formation/v1',
    kind: 'Formation',
    metadata: { name: 'duo', environment: 'dev' },
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'game-server', branch: 'dev', image: img('dev', 'game-server', '1.0.0'), args: ['--a'] },
            { name: 'sidecar', branch: 'dev', image: img('dev', 'game-server', '1.0.0'), args: ['--s'] },
          ],
        },
      },
      vessels: [{ name: 'duo-1', region: 'eu-central', override }],
    },
  };
}

const containersOf = (sim: TestSim) =>
  sim.sim.state
    .getVessel('dev', 'duo-1')
    ?.spec.template.spec.containers.map((c) => [c.name, c.image, c.args]);

describe('override entries', () => {
  it('by name (seed): an entry naming sidecar overrides sidecar whatever its place', async () => {
    const s = await start({});
    await callJson(s.sim, FORMATIONS, 201, {
      body: duo({
        containers: [{ name: 'sidecar', image: img('dev', 'game-server', '1.1.0'), args: ['--x'] }],
      }),
    });
    expect(containersOf(s)).toEqual([
      ['game-server', img('dev', 'game-server', '1.0.0'), ['--a']],
      ['sidecar', img('dev', 'game-server', '1.1.0'), ['--x']],
    ]);
  });

  it('by position (real shapes): the first entry overrides the first container, its name unused', async () => {
    const s = await start({ realShapes: true });
    await callJson(s.sim, FORMATIONS, 201, {
      body: duo({ containers: [{ name: 'sidecar', args: ['--x'] }] }),
    });
    expect(containersOf(s)).toEqual([
      ['game-server', img('dev', 'game-server', '1.0.0'), ['--x']],
      ['sidecar', img('dev', 'game-server', '1.0.0'), ['--s']],
    ]);
  });

  it('by position: an empty first entry leaves game-server alone and the second overrides sidecar', async () => {
    const s = await start({ realShapes: true });
    await callJson(s.sim, FORMATIONS, 201, {
      body: duo({ containers: [{}, { image: img('dev', 'game-server', '1.1.0'), args: ['--y'] }] }),
    });
    expect(containersOf(s)).toEqual([
      ['game-server', img('dev', 'game-server', '1.0.0'), ['--a']],
      ['sidecar', img('dev', 'game-server', '1.1.0'), ['--y']],
    ]);
  });

  it('by position: refuses more entries than the template has containers (422 naming both counts)', async () => {
    const s = await start({ realShapes: true });
    const res = await callJson<StatusBody>(s.sim, FORMATIONS, 422, {
      body: duo({ containers: [{}, {}, {}] }),
    });
    expect(res.message).toContain(
      'spec.vessels[0].override.containers: Too many: 3 entries, but spec.template has 2 container(s)',
    );
  });

  it('with images ignored: the image is dropped from the stored entry and never reaches the Vessel; args do', async () => {
    const s = await start({ realShapes: true, ignoreOverrideImages: true });
    const created = await callJson<Formation>(s.sim, FORMATIONS, 201, {
      // Not even checked: an unknown field is not looked at.
      body: duo({ containers: [{ name: 'game-server', image: 'img-nowhere', args: ['--x'] }] }),
    });
    expect(created.spec.vessels[0]?.override).toEqual({
      containers: [{ name: 'game-server', args: ['--x'] }],
    });
    expect(containersOf(s)).toEqual([
      ['game-server', img('dev', 'game-server', '1.0.0'), ['--x']],
      ['sidecar', img('dev', 'game-server', '1.0.0'), ['--s']],
    ]);
  });
});
