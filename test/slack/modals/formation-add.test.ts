/** The add-to-formation modal: template containers, "keep" first, only changed containers become overrides. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { operationModule } from '../../../src/changes/operations/index.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { internalImageName } from '../../../src/simulator/index.js';
import { viewProblems } from '../../../src/slack/limits.js';
import {
  FORMATION_BLOCKS as B,
  fieldErrors,
  KEEP_TEMPLATE,
  loadedView,
  openingView,
  overrideBlock,
  readSubmission,
} from '../../../src/slack/modals/index.js';
import { fill, initialOption, input, meta, optionValues, startWorld, type World } from './helpers.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
  // A second formation with a sidecar, to see override indexes follow the changed containers.
  await world.client.createFormation('dev', {
    metadata: { name: 'duo', environment: 'dev' },
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'game-server', branch: 'dev', image: internalImageName('dev', 'game-server', '1.0.0') },
            { name: 'metrics', branch: 'dev', image: internalImageName('dev', 'sidecar-metrics', '0.3.0') },
          ],
        },
      },
      vessels: [],
    },
  });
});
afterAll(() => world.sim.stop());

const lobby = meta('formation.add', { environment: 'dev', formation: 'lobby' });
const duo = meta('formation.add', { environment: 'dev', formation: 'duo' });
const GS_IMAGE = overrideBlock(0, 'game-server', 'image');
const GS_ARGS = overrideBlock(0, 'game-server', 'args');

describe('add-to-formation modal', () => {
  it('opens with its title', () => {
    expect(openingView(lobby).title.text).toBe('Add to formation');
  });

  it('offers "keep template image" first, then the branch images, newest tags first', async () => {
    const view = await loadedView(lobby, world.deps, silentLogger);
    expect(optionValues(view, B.region)).toEqual(['eu-central', 'us-west']);
    expect(optionValues(view, GS_IMAGE)).toEqual([
      KEEP_TEMPLATE,
      'game-server:1.2.0',
      'game-server:1.1.0',
      'game-server:1.0.0',
      'sidecar-metrics:0.3.0',
    ]);
    expect(initialOption(view, GS_IMAGE)).toBe(KEEP_TEMPLATE);
    expect(JSON.stringify(input(view, GS_IMAGE))).toContain('keep template image (game-server:1.1.0)');
    expect(input(view, GS_ARGS).hint?.text).toContain('--mode lobby');
    expect(viewProblems(view)).toEqual([]);
  });

  it('sends no overrides when nothing was changed', async () => {
    const view = await loadedView(lobby, world.deps, silentLogger);
    const input = {
      environment: 'dev',
      formation: 'lobby',
      vessel: 'lobby-3',
      region: 'eu-central',
      overrides: [],
    };
    expect(readSubmission(lobby, fill(view, { [B.vessel]: 'lobby-3', [B.region]: 'eu-central' }))).toEqual({
      ok: true,
      operation: 'formation.add',
      input,
    });
    expect(operationModule('formation.add').parse(input)).toEqual(input);
  });

  it('sends an override with the chosen image and the typed args', async () => {
    const view = await loadedView(lobby, world.deps, silentLogger);
    const state = fill(view, {
      [B.vessel]: 'lobby-3',
      [B.region]: 'eu-central',
      [GS_IMAGE]: 'game-server:1.2.0',
      [GS_ARGS]: '--mode "ranked duo"',
    });
    const result = readSubmission(lobby, state);
    const overrides = [
      { container: 'game-server', image: 'game-server:1.2.0', args: ['--mode', 'ranked duo'] },
    ];
    expect(result).toEqual({
      ok: true,
      operation: 'formation.add',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-3', region: 'eu-central', overrides },
    });
    expect(operationModule('formation.add').parse(result.ok ? result.input : {})).toMatchObject({
      overrides,
    });
  });

  it('only lists the containers the user changed, and maps their problems back', async () => {
    const view = await loadedView(duo, world.deps, silentLogger);
    const metricsImage = overrideBlock(1, 'metrics', 'image');
    expect(optionValues(view, metricsImage).slice(0, 2)).toEqual([KEEP_TEMPLATE, 'sidecar-metrics:0.3.0']);
    const state = fill(view, {
      [B.vessel]: 'duo-1',
      [B.region]: 'eu-central',
      [metricsImage]: 'game-server:1.0.0',
    });
    const result = readSubmission(duo, state);
    expect(result.ok && result.operation === 'formation.add' && result.input.overrides).toEqual([
      { container: 'metrics', image: 'game-server:1.0.0' },
    ]);
    const problem = { field: 'overrides[0].image', message: 'no image there' };
    expect(fieldErrors(duo, [problem], state)).toEqual({ [metricsImage]: 'no image there' });
    expect(fieldErrors(duo, [problem])).toEqual({ [B.vessel]: 'overrides[0].image: no image there' });
  });

  it('names missing fields and unclosed quotes by block', async () => {
    const view = await loadedView(lobby, world.deps, silentLogger);
    const result = readSubmission(lobby, fill(view, { [GS_ARGS]: "--mode 'x" }));
    expect(result.ok ? {} : result.errors).toEqual({
      [B.vessel]: 'Give the vessel a name, e.g. lobby-3.',
      [B.region]: 'Choose a region.',
      [GS_ARGS]: "a ' quote is not closed; close it or remove it",
    });
  });

  it('puts an invalid vessel name from the engine on the vessel block', async () => {
    const view = await loadedView(lobby, world.deps, silentLogger);
    const result = readSubmission(lobby, fill(view, { [B.vessel]: 'Lobby 3', [B.region]: 'eu-central' }));
    expect(result.ok).toBe(false);
    expect(Object.keys(result.ok ? {} : result.errors)).toEqual([B.vessel]);
  });

  it('says a missing formation is not in the environment and lists the ones that are', async () => {
    const view = await loadedView(
      meta('formation.add', { environment: 'dev', formation: 'nope' }),
      world.deps,
      silentLogger,
    );
    expect(view.submit?.text).toBe('Next');
    expect(view.close?.text).toBe('Cancel');
    expect(JSON.stringify(view.blocks)).toContain('There is no formation *nope* in *dev*');
  });
});
