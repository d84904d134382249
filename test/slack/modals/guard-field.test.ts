/**
 * The Guard field of the forms that roll out a build (issue 42): only on
 * promote, armada image and armadaset image, between When and Break glass;
 * read into the `GuardAsk` the flags make (empty: the policy's guard; a
 * window; `none`), a bad value refused on the field in its own words (never
 * `--guard`), with the flag's 24h limit; what was typed kept across reloads.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { silentLogger } from '../../../src/runtime/logger.js';
import { viewProblems } from '../../../src/slack/limits.js';
import {
  BREAK_GLASS_BLOCK,
  GUARD_BLOCK,
  readGuard,
  WHEN_BLOCK,
} from '../../../src/slack/modals/control-fields.js';
import {
  FLEET_IMAGE_BLOCKS as I,
  loadedView,
  PROMOTE_BLOCKS as P,
  readSubmission,
  WHERE_BLOCKS as W,
} from '../../../src/slack/modals/index.js';
import { fill, input, inputs, meta, startWorld, type World } from './helpers.js';

const MINUTE = 60_000;

describe('reading the Guard field', () => {
  it('reads empty as the policy’s guard, a window as a guard that long, and none as declining it', () => {
    expect(readGuard(undefined)).toEqual({});
    expect(readGuard('15m')).toEqual({ ask: { withinMs: 15 * MINUTE } });
    expect(readGuard('1h')).toEqual({ ask: { withinMs: 60 * MINUTE } });
    expect(readGuard('90s')).toEqual({ ask: { withinMs: 90_000 } });
    expect(readGuard('24h')).toEqual({ ask: { withinMs: 24 * 60 * MINUTE } });
    expect(readGuard('1d')).toEqual({ ask: { withinMs: 24 * 60 * MINUTE } });
    expect(readGuard('none')).toEqual({ ask: { off: true } });
    expect(readGuard('None')).toEqual({ ask: { off: true } });
  });

  it('refuses what is not a window in the field’s words, and a window over a day as the flag does', () => {
    const bad = (text: string) => {
      const read = readGuard(text);
      if (!('problem' in read)) throw new Error(`expected ${text} to be refused`);
      expect(read.problem).not.toContain('--');
      return read.problem;
    };
    expect(bad('15 parsecs')).toBe(
      'Guard: expected a window like 15m or 1h (at most 24h), or none; got "15 parsecs".',
    );
    expect(bad('soon')).toBe('Guard: expected a window like 15m or 1h (at most 24h), or none; got "soon".');
    expect(bad('0m')).toBe('Guard: expected a window like 15m or 1h (at most 24h), or none; got "0m".');
    expect(bad('no')).toBe('Guard: expected a window like 15m or 1h (at most 24h), or none; got "no".');
    expect(bad('25h')).toBe('Guard: expected at most 24h (a guard watches one rollout), got "25h".');
    expect(bad('2d')).toBe('Guard: expected at most 24h (a guard watches one rollout), got "2d".');
  });
});

describe('the Guard field on the forms', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.sim.stop());

  const promote = meta('promote');
  const armadaImage = meta('armada.image', { environment: 'dev', fleet: 'duel' });
  const promoteAnswers = { [P.image]: 'game-server:1.1.0', [P.target]: 'prod' };

  it('sits between When and Break glass on the rollouts of a build only', async () => {
    const promoteView = await loadedView(promote, world.deps, silentLogger);
    expect([...inputs(promoteView).keys()].slice(-3)).toEqual([WHEN_BLOCK, GUARD_BLOCK, BREAK_GLASS_BLOCK]);
    expect(input(promoteView, GUARD_BLOCK)).toMatchObject({ optional: true, label: { text: 'Guard' } });
    expect(JSON.stringify(input(promoteView, GUARD_BLOCK).hint)).toContain('none declines a guard');
    expect(viewProblems(promoteView)).toEqual([]);
    for (const kind of ['armada.image', 'armadaset.image'] as const) {
      const view = await loadedView(meta(kind, { environment: 'dev' }), world.deps, silentLogger);
      expect([...inputs(view).keys()].slice(-3)).toEqual([WHEN_BLOCK, GUARD_BLOCK, BREAK_GLASS_BLOCK]);
    }
    for (const kind of ['armada.scale', 'vessel.delete'] as const) {
      const view = await loadedView(meta(kind, { environment: 'dev' }), world.deps, silentLogger);
      expect([...inputs(view).keys()]).not.toContain(GUARD_BLOCK);
      expect([...inputs(view).keys()].slice(-2)).toEqual([WHEN_BLOCK, BREAK_GLASS_BLOCK]);
    }
  });

  it('reads a window and none into the request, and nothing when empty', async () => {
    const view = await loadedView(promote, world.deps, silentLogger);
    const input = { image: 'game-server', tag: '1.1.0', sourceBranch: 'dev', targetBranch: 'prod' };
    expect(readSubmission(promote, fill(view, { ...promoteAnswers, [GUARD_BLOCK]: ' 30m ' }))).toEqual({
      ok: true,
      operation: 'image.promote',
      input,
      guard: { withinMs: 30 * MINUTE },
    });
    expect(readSubmission(promote, fill(view, { ...promoteAnswers, [GUARD_BLOCK]: 'none' }))).toEqual({
      ok: true,
      operation: 'image.promote',
      input,
      guard: { off: true },
    });
    expect(readSubmission(promote, fill(view, { ...promoteAnswers, [GUARD_BLOCK]: '' }))).toEqual({
      ok: true,
      operation: 'image.promote',
      input,
    });
  });

  it('refuses a bad value on the Guard field, together with the form’s other problems', async () => {
    const view = await loadedView(armadaImage, world.deps, silentLogger);
    const result = readSubmission(
      armadaImage,
      fill(view, { [W.environment]: 'dev', [I.image]: null, [GUARD_BLOCK]: '15 parsecs' }),
    );
    expect(result.ok).toBe(false);
    const errors = result.ok ? {} : result.errors;
    expect(errors[GUARD_BLOCK]).toBe(
      'Guard: expected a window like 15m or 1h (at most 24h), or none; got "15 parsecs".',
    );
    expect(errors[I.image]).toBe('Choose an image.');
    expect(JSON.stringify(errors)).not.toContain('--guard');
    const tooLong = readSubmission(
      armadaImage,
      fill(view, { [W.environment]: 'dev', [I.image]: 'game-server:1.1.0', [GUARD_BLOCK]: '2d' }),
    );
    expect(tooLong).toEqual({
      ok: false,
      errors: { [GUARD_BLOCK]: 'Guard: expected at most 24h (a guard watches one rollout), got "2d".' },
    });
  });

  it('reads no guard on a form that shows no Guard field, whatever a forged submission holds', async () => {
    const deletion = meta('vessel.delete', { environment: 'dev' });
    const view = await loadedView(deletion, world.deps, silentLogger);
    const values = {
      ...fill(view, { [W.environment]: 'dev', vessel: 'duel-1' }),
      [GUARD_BLOCK]: { guard: { type: 'plain_text_input', value: 'nonsense' } },
    };
    expect(readSubmission(deletion, values)).toEqual({
      ok: true,
      operation: 'vessel.delete',
      input: { environment: 'dev', vessel: 'duel-1' },
    });
  });

  it('keeps what was typed in Guard across a reload', async () => {
    const first = await loadedView(promote, world.deps, silentLogger);
    const reloaded = await loadedView(
      promote,
      world.deps,
      silentLogger,
      fill(first, { [P.source]: 'prod', [GUARD_BLOCK]: '45m' }),
    );
    expect(input(reloaded, GUARD_BLOCK).element).toMatchObject({ initial_value: '45m' });
    const refusedThenKept = await loadedView(
      promote,
      world.deps,
      silentLogger,
      fill(first, { [GUARD_BLOCK]: 'none' }),
      'Guard `none` is refused: …',
      GUARD_BLOCK,
    );
    const ids = refusedThenKept.blocks.map((b) => b.block_id);
    // The problem goes right under the field, which keeps what was typed.
    expect(ids[ids.indexOf(GUARD_BLOCK) + 1]).toBe('field-problem');
    expect(input(refusedThenKept, GUARD_BLOCK).element).toMatchObject({ initial_value: 'none' });
  });
});
