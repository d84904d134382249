/**
 * The remove-from-formation modal: opened from a release thread it asks for
 * the environment and formation first (no submit button until both are
 * known), then lists that formation's vessels; a submission becomes the
 * engine's formation.remove request.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { operationModule } from '../../../src/changes/operations/index.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { internalImageName } from '../../../src/simulator/index.js';
import { viewProblems } from '../../../src/slack/limits.js';
import { BREAK_GLASS_BLOCK, WHEN_BLOCK } from '../../../src/slack/modals/control-fields.js';
import {
  FORMATION_REMOVE_BLOCKS as B,
  fieldErrors,
  loadedView,
  openingView,
  placeMissing,
  readSubmission,
  WHERE_BLOCKS as W,
} from '../../../src/slack/modals/index.js';
import { fill, inputs, meta, optionValues, startWorld, type World } from './helpers.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.sim.stop());

const fromRelease = meta('formation.remove', { threadTs: '1700000000.000100', releaseId: 'rel-1' });
const lobby = meta('formation.remove', { environment: 'dev', formation: 'lobby' });

describe('remove-from-formation modal', () => {
  it('opens with its title', () => {
    expect(openingView(fromRelease).title.text).toBe('Remove vessel');
  });

  it('from a release thread asks for the environment first; its submit button is Next', async () => {
    const view = await loadedView(fromRelease, world.deps, silentLogger);
    expect([...inputs(view).keys()]).toEqual([W.environment]);
    expect(view.submit?.text).toBe('Next');
    const env = inputs(view).get(W.environment);
    expect(env?.dispatch_action).toBe(true);
  });

  it('lists the formations of the typed environment, then the vessels of the chosen one', async () => {
    const step1 = await loadedView(fromRelease, world.deps, silentLogger);
    const step2 = await loadedView(
      fromRelease,
      world.deps,
      silentLogger,
      fill(step1, { [W.environment]: 'dev' }),
    );
    expect(optionValues(step2, W.formation)).toEqual(['lobby']);
    expect(step2.submit?.text).toBe('Next');

    const step3 = await loadedView(
      fromRelease,
      world.deps,
      silentLogger,
      fill(step2, { [W.environment]: 'dev', [W.formation]: 'lobby' }),
    );
    expect([...inputs(step3).keys()]).toEqual([
      W.environment,
      W.formation,
      B.vessel,
      WHEN_BLOCK,
      BREAK_GLASS_BLOCK,
    ]);
    expect(optionValues(step3, B.vessel)).toEqual(['lobby-1', 'lobby-2']);
    expect(step3.submit?.text).toBe('Preview');
    // The metadata keeps what the opener named; the picks live in the view's state.
    expect(JSON.parse(step3.private_metadata ?? '{}')).toEqual(fromRelease);
    expect(viewProblems(step3)).toEqual([]);

    const state = fill(step3, { [W.environment]: 'dev', [W.formation]: 'lobby', [B.vessel]: 'lobby-2' });
    const result = readSubmission(fromRelease, state);
    const input = { environment: 'dev', formation: 'lobby', vessel: 'lobby-2' };
    expect(result).toEqual({ ok: true, operation: 'formation.remove', input });
    expect(operationModule('formation.remove').parse(input)).toEqual(input);
  });

  it('a submission of the where step (Next) is to be reloaded, not read; a loaded form is read', async () => {
    const step1 = await loadedView(fromRelease, world.deps, silentLogger);
    expect(placeMissing(fromRelease, fill(step1, { [W.environment]: 'dev' }))).toBe(true);
    const step2 = await loadedView(
      fromRelease,
      world.deps,
      silentLogger,
      fill(step1, { [W.environment]: 'dev' }),
    );
    expect(placeMissing(fromRelease, fill(step2, { [W.environment]: 'dev', [W.formation]: 'lobby' }))).toBe(
      true,
    );
    const step3 = await loadedView(
      fromRelease,
      world.deps,
      silentLogger,
      fill(step2, { [W.environment]: 'dev', [W.formation]: 'lobby' }),
    );
    expect(placeMissing(fromRelease, fill(step3, { [W.environment]: 'dev', [W.formation]: 'lobby' }))).toBe(
      false,
    );
    // Opened with its place, the loaded form is read at once.
    const loaded = await loadedView(lobby, world.deps, silentLogger);
    expect(placeMissing(lobby, fill(loaded, { [B.vessel]: 'lobby-1' }))).toBe(false);
  });

  it('says so when the typed environment or formation does not exist', async () => {
    // The select lists the API's environments only: a missing one can only be typed.
    const noEnv = await loadedView(fromRelease, world.deps, silentLogger, {
      [W.environment]: { value: { type: 'plain_text_input', value: 'qa' } },
    });
    expect(JSON.stringify(noEnv.blocks)).toContain('There is no environment *qa*');
    expect(noEnv.submit?.text).toBe('Next');

    const typed = {
      [W.environment]: { value: { type: 'plain_text_input', value: 'dev' } },
      [W.formation]: { value: { type: 'plain_text_input', value: 'arena' } },
    };
    const noFormation = await loadedView(fromRelease, world.deps, silentLogger, typed);
    expect(JSON.stringify(noFormation.blocks)).toContain('There is no formation *arena* in *dev*');
    expect(noFormation.submit?.text).toBe('Next');
  });

  it('opened with a place shows the environment select and the vessel choice', async () => {
    const view = await loadedView(lobby, world.deps, silentLogger);
    expect([...inputs(view).keys()]).toEqual([W.environment, B.vessel, WHEN_BLOCK, BREAK_GLASS_BLOCK]);
    expect(JSON.stringify(view.blocks)).toContain('formation *lobby* in *dev*');
  });

  it('asks for a vessel when none was chosen, and places engine problems on their blocks', async () => {
    const view = await loadedView(lobby, world.deps, silentLogger);
    const result = readSubmission(lobby, fill(view));
    expect(result.ok ? {} : result.errors).toEqual({
      [B.vessel]: 'Choose a vessel.',
    });
    const step3 = await loadedView(fromRelease, world.deps, silentLogger, {
      [W.environment]: { value: { type: 'plain_text_input', value: 'dev' } },
      [W.formation]: { value: { type: 'static_select', selected_option: null } },
    });
    const state = fill(step3, { [W.environment]: 'dev' });
    expect(fieldErrors(fromRelease, [{ field: 'environment', message: 'odd' }], state)).toEqual({
      [W.environment]: 'odd',
    });
    expect(fieldErrors(lobby, [{ field: 'environment', message: 'odd' }])).toEqual({
      [B.vessel]: 'environment: odd',
    });
  });

  it('a formation without vessels offers a typed field instead of an empty list', async () => {
    await world.client.createFormation('dev', {
      metadata: { name: 'empty', environment: 'dev' },
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'game-server', branch: 'dev', image: internalImageName('dev', 'game-server', '1.0.0') },
            ],
          },
        },
        vessels: [],
      },
    });
    const view = await loadedView(
      meta('formation.remove', { environment: 'dev', formation: 'empty' }),
      world.deps,
      silentLogger,
    );
    expect(inputs(view).get(B.vessel)?.element.type).toBe('plain_text_input');
    expect(JSON.stringify(view.blocks)).toContain('No vessels in empty to choose from');
  });
});
