/**
 * The where step on the add-to-formation modal, as a release thread's button
 * opens it (no environment or formation named): the rest of the form loads
 * once both are picked, the submission carries the picks, a changed
 * formation swaps the template below, and a huge template still fits.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { silentLogger } from '../../../src/runtime/logger.js';
import { demoData, internalImageName } from '../../../src/simulator/index.js';
import { LIMITS, viewProblems } from '../../../src/slack/limits.js';
import {
  FORMATION_BLOCKS as B,
  loadedView,
  overrideBlock,
  readSubmission,
  WHERE_BLOCKS as W,
} from '../../../src/slack/modals/index.js';
import { fill, inputs, meta, optionValues, startWorld, type World } from './helpers.js';

let world: World;
beforeAll(async () => {
  const data = demoData();
  const image = internalImageName('dev', 'game-server', '1.0.0');
  data.environments.dev?.formations?.push({
    apiVersion: 'formation/v1',
    kind: 'Formation',
    metadata: { name: 'big', environment: 'dev' },
    spec: {
      template: {
        spec: {
          containers: Array.from({ length: 40 }, (_, i) => ({ name: `c-${i}`, branch: 'dev', image })),
        },
      },
      vessels: [],
    },
  });
  world = await startWorld(data);
});
afterAll(() => world.sim.stop());

const fromRelease = meta('formation.add', { threadTs: '1700000000.000100', releaseId: 'rel-1' });

/** The view after typing `environment` and picking `formation`, as two reloads would build it. */
async function picked(environment: string, formation: string) {
  const step1 = await loadedView(fromRelease, world.deps, silentLogger);
  const step2 = await loadedView(
    fromRelease,
    world.deps,
    silentLogger,
    fill(step1, { [W.environment]: environment }),
  );
  return loadedView(
    fromRelease,
    world.deps,
    silentLogger,
    fill(step2, { [W.environment]: environment, [W.formation]: formation }),
  );
}

describe('add-to-formation from a release thread', () => {
  it('loads the form below the picks and submits them', async () => {
    const view = await picked('dev', 'lobby');
    expect([...inputs(view).keys()].slice(0, 4)).toEqual([W.environment, W.formation, B.vessel, B.region]);
    expect(optionValues(view, W.formation)).toEqual(['big', 'lobby']);
    const state = fill(view, { [B.vessel]: 'lobby-3', [B.region]: 'eu-central' });
    expect(readSubmission(fromRelease, state)).toEqual({
      ok: true,
      operation: 'formation.add',
      input: {
        environment: 'dev',
        formation: 'lobby',
        vessel: 'lobby-3',
        region: 'eu-central',
        overrides: [],
      },
    });
  });

  it('a submission without the picks says the form lost its place', () => {
    const result = readSubmission(fromRelease, {});
    expect(result.ok ? {} : result.errors[B.vessel]).toMatch(/lost its environment or formation/);
  });

  it('picking another formation swaps the template, and 40 containers still fit', async () => {
    const view = await picked('dev', 'big');
    expect(inputs(view).has(overrideBlock(0, 'c-0', 'image'))).toBe(true);
    expect(inputs(view).has(overrideBlock(0, 'game-server', 'image'))).toBe(false);
    expect(view.blocks.length).toBeLessThanOrEqual(LIMITS.modalBlocks);
    expect(viewProblems(view)).toEqual([]);
  });
});
