/**
 * The "Tail logs" modal of a release thread: environment first, then the
 * environment's vessels and an optional container; a submission reads into
 * the tail to start (not a change), with names checked as the engine does.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { silentLogger } from '../../../src/runtime/logger.js';
import { viewProblems } from '../../../src/slack/limits.js';
import {
  LOGS_FOLLOW_BLOCKS as B,
  loadedView,
  openingView,
  readSubmission,
  readTailSubmission,
  WHERE_BLOCKS as W,
} from '../../../src/slack/modals/index.js';
import { fill, inputs, meta, optionValues, startWorld, type World } from './helpers.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.sim.stop());

const fromRelease = meta('logs.follow', { threadTs: '1700000000.000100', releaseId: 'rel-1' });
const dev = meta('logs.follow', { environment: 'dev' });

describe('tail logs modal', () => {
  it('opens with its title', () => {
    expect(openingView(fromRelease).title.text).toBe('Tail logs');
  });

  it('asks for the environment, then lists its vessels with their state', async () => {
    const step1 = await loadedView(fromRelease, world.deps, silentLogger);
    expect([...inputs(step1).keys()]).toEqual([W.environment]);
    expect(step1.submit?.text).toBe('Next');

    const step2 = await loadedView(
      fromRelease,
      world.deps,
      silentLogger,
      fill(step1, { [W.environment]: 'dev' }),
    );
    expect([...inputs(step2).keys()]).toEqual([W.environment, B.vessel, B.container]);
    expect(optionValues(step2, B.vessel)).toEqual(expect.arrayContaining(['lobby-1', 'lobby-2']));
    expect(JSON.stringify(inputs(step2).get(B.vessel))).toMatch(/lobby-1 \(\w+\)/);
    expect(step2.submit?.text).toBe('Start tail');
    expect(viewProblems(step2)).toEqual([]);

    const state = fill(step2, {
      [W.environment]: 'dev',
      [B.vessel]: 'lobby-1',
      [B.container]: 'game-server',
    });
    expect(readTailSubmission(fromRelease, state)).toEqual({
      ok: true,
      tail: { environment: 'dev', vessel: 'lobby-1', container: 'game-server' },
    });
  });

  it('leaves the container out when it is empty', async () => {
    const view = await loadedView(dev, world.deps, silentLogger);
    expect(readTailSubmission(dev, fill(view, { [B.vessel]: 'lobby-2' }))).toEqual({
      ok: true,
      tail: { environment: 'dev', vessel: 'lobby-2' },
    });
  });

  it('names a missing vessel and an invalid container on their blocks', async () => {
    const view = await loadedView(dev, world.deps, silentLogger);
    const missing = readTailSubmission(dev, fill(view));
    expect(missing.ok ? {} : missing.errors).toEqual({
      [B.vessel]: 'Choose a vessel.',
    });
    const bad = readTailSubmission(dev, fill(view, { [B.vessel]: 'lobby-1', [B.container]: 'Game Server' }));
    expect(bad.ok).toBe(false);
    expect(Object.keys(bad.ok ? {} : bad.errors)).toEqual([B.container]);
  });

  it('an unknown environment is said in the form, with a field to type the vessel', async () => {
    const view = await loadedView(meta('logs.follow', { environment: 'qa' }), world.deps, silentLogger);
    expect(JSON.stringify(view.blocks)).toContain('There is no environment *qa*');
    expect(inputs(view).get(B.vessel)?.element.type).toBe('plain_text_input');
  });

  it('is not a change modal', () => {
    expect(() => readSubmission(dev, {})).toThrow(/starts a tail/);
  });
});
