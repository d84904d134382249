/**
 * The delete-vessel modal (a release's "Add a change…"): the environment
 * first, then only the standalone vessels of it (a formation's would be
 * refused by the engine); a submission becomes the engine's vessel.delete
 * request, and a missing vessel is said on its field.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { operationModule } from '../../../src/changes/operations/index.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { viewProblems } from '../../../src/slack/limits.js';
import { BREAK_GLASS_BLOCK, WHEN_BLOCK } from '../../../src/slack/modals/control-fields.js';
import {
  VESSEL_DELETE_BLOCKS as B,
  loadedView,
  openingView,
  readSubmission,
  WHERE_BLOCKS as W,
} from '../../../src/slack/modals/index.js';
import { fill, inputs, meta, optionValues, startWorld, type World } from './helpers.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.sim.stop());

const fromRelease = meta('vessel.delete', { threadTs: '1700000000.000100', releaseId: 'rel-1' });

describe('delete-vessel modal', () => {
  it('asks for the environment, then offers its standalone vessels only', async () => {
    expect(openingView(fromRelease).title.text).toBe('Delete vessel');
    const step1 = await loadedView(fromRelease, world.deps, silentLogger);
    expect([...inputs(step1).keys()]).toEqual([W.environment]);
    expect(step1.submit?.text).toBe('Next');

    const step2 = await loadedView(
      fromRelease,
      world.deps,
      silentLogger,
      fill(step1, { [W.environment]: 'dev' }),
    );
    expect([...inputs(step2).keys()]).toEqual([W.environment, B.vessel, WHEN_BLOCK, BREAK_GLASS_BLOCK]);
    // lobby-1 and lobby-2 belong to the formation lobby: removing them is the formation's form.
    expect(optionValues(step2, B.vessel)).toEqual(['duel-1']);
    expect(step2.submit?.text).toBe('Preview');
    expect(viewProblems(step2)).toEqual([]);

    const result = readSubmission(fromRelease, fill(step2, { [W.environment]: 'dev', [B.vessel]: 'duel-1' }));
    const input = { environment: 'dev', vessel: 'duel-1' };
    expect(result).toEqual({ ok: true, operation: 'vessel.delete', input });
    expect(operationModule('vessel.delete').parse(input)).toEqual(input);
  });

  it('reads When and Break glass (issue 41) as the time and reason typed, beside the input', async () => {
    const step1 = await loadedView(fromRelease, world.deps, silentLogger);
    const step2 = await loadedView(
      fromRelease,
      world.deps,
      silentLogger,
      fill(step1, { [W.environment]: 'dev' }),
    );
    const result = readSubmission(
      fromRelease,
      fill(step2, {
        [W.environment]: 'dev',
        [B.vessel]: 'duel-1',
        [WHEN_BLOCK]: ' 18:00 Europe/Berlin ',
        [BREAK_GLASS_BLOCK]: 'crashes every match',
      }),
    );
    expect(result).toEqual({
      ok: true,
      operation: 'vessel.delete',
      input: { environment: 'dev', vessel: 'duel-1' },
      at: '18:00 Europe/Berlin',
      breakGlass: 'crashes every match',
    });
  });

  it('a submission without a vessel is an error on the vessel field', async () => {
    const step1 = await loadedView(fromRelease, world.deps, silentLogger);
    const step2 = await loadedView(
      fromRelease,
      world.deps,
      silentLogger,
      fill(step1, { [W.environment]: 'dev' }),
    );
    const result = readSubmission(fromRelease, fill(step2, { [W.environment]: 'dev' }));
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain('Choose a vessel');
  });
});
