/** The create-region modal: up to three type rows, empty rows ignored, errors on the row they came from. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { operationModule } from '../../../src/changes/operations/index.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { viewProblems } from '../../../src/slack/limits.js';
import {
  REGION_BLOCKS as B,
  fieldErrors,
  loadedView,
  openingView,
  readSubmission,
  typeBlock,
} from '../../../src/slack/modals/index.js';
import { fill, initialOption, input, meta, optionValues, startWorld, type World } from './helpers.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.sim.stop());

const m = meta('region.create', { environment: 'dev' });

describe('create-region modal', () => {
  it('opens with its title and loads reading only the environment list', async () => {
    expect(openingView(m).title.text).toBe('Create region');
    world.sim.clearRequests();
    const view = await loadedView(m, world.deps, silentLogger);
    expect(world.sim.requests.map((r) => r.path)).toEqual(['/api/core/v1/environments']);
    expect(optionValues(view, typeBlock(2, 'scheduling'))).toEqual(['Packed', 'Distributed']);
    expect(initialOption(view, typeBlock(0, 'scheduling'))).toBe('Packed');
    expect(input(view, typeBlock(0, 'name')).optional).toBe(false);
    expect(input(view, typeBlock(1, 'name')).optional).toBe(true);
    expect(viewProblems(view)).toEqual([]);
  });

  it('reads filled rows in order, skipping empty ones, into input the operation accepts', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    const state = fill(view, {
      [B.name]: 'eu-west',
      [B.displayName]: 'EU West',
      [typeBlock(0, 'name')]: 'baremetal',
      [typeBlock(0, 'locations')]: 'fra-1, fra-2,',
      [typeBlock(2, 'name')]: 'cloud',
      [typeBlock(2, 'locations')]: 'ams-1',
      [typeBlock(2, 'scheduling')]: 'Distributed',
    });
    const input = {
      environment: 'dev',
      name: 'eu-west',
      displayName: 'EU West',
      types: [
        { name: 'baremetal', locations: ['fra-1', 'fra-2'], scheduling: 'Packed' },
        { name: 'cloud', locations: ['ams-1'], scheduling: 'Distributed' },
      ],
    };
    expect(readSubmission(m, state)).toEqual({ ok: true, operation: 'region.create', input });
    expect(operationModule('region.create').parse(input)).toEqual(input);
  });

  it('names half-filled rows and a missing name', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    const state = fill(view, {
      [typeBlock(0, 'name')]: 'baremetal',
      [typeBlock(1, 'locations')]: 'ams-1',
    });
    expect(readSubmission(m, state)).toEqual({
      ok: false,
      errors: {
        [B.name]: 'Give the region a name, e.g. eu-west.',
        [typeBlock(0, 'locations')]: 'Give at least one location, e.g. fra-1.',
        [typeBlock(1, 'name')]: 'Give this type a name, e.g. baremetal.',
      },
    });
  });

  it('puts engine problems of types[k] on the row that became types[k]', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    const state = fill(view, {
      [B.name]: 'eu-west',
      [typeBlock(0, 'name')]: 'baremetal',
      [typeBlock(0, 'locations')]: 'fra-1',
      [typeBlock(2, 'name')]: 'Bad Name',
      [typeBlock(2, 'locations')]: 'ams-1',
    });
    const result = readSubmission(m, state);
    expect(Object.keys(result.ok ? {} : result.errors)).toEqual([typeBlock(2, 'name')]);
    const problems = [{ field: 'types[1].locations', message: 'odd' }];
    expect(fieldErrors(m, problems, state)).toEqual({ [typeBlock(2, 'locations')]: 'odd' });
    expect(fieldErrors(m, problems)).toEqual({ [typeBlock(1, 'locations')]: 'odd' });
    expect(fieldErrors(m, [{ field: 'types', message: 'dup' }])).toEqual({ [typeBlock(0, 'name')]: 'dup' });
  });

  it('rejects a region name the engine does not accept, on the name block', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    const state = fill(view, {
      [B.name]: 'a-region-name-that-is-far-too-long',
      [typeBlock(0, 'name')]: 'baremetal',
      [typeBlock(0, 'locations')]: 'fra-1',
    });
    const result = readSubmission(m, state);
    expect(result.ok ? {} : result.errors).toEqual({ [B.name]: expect.stringContaining('at most 24') });
  });
});
