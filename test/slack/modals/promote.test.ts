/** The promote modal against the demo data: branches, images newest first, reload, submission. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { operationModule } from '../../../src/changes/operations/index.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { MODAL_CALLBACKS, MODAL_RELOAD_ACTION } from '../../../src/slack/ids.js';
import { viewProblems } from '../../../src/slack/limits.js';
import {
  fieldErrors,
  loadedView,
  openingView,
  readMetadata,
  readSubmission,
} from '../../../src/slack/modals/index.js';
import { fill, initialOption, input, meta, optionValues, startWorld, type World } from './helpers.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.sim.stop());

const m = meta('promote', { threadTs: '1700000000.000100' });

describe('promote modal', () => {
  it('opens at once with a loading note, no submit and its metadata', () => {
    world.sim.clearRequests();
    const view = openingView(m);
    expect(view).toMatchObject({
      type: 'modal',
      callback_id: MODAL_CALLBACKS.promote,
      title: { text: 'Promote image' },
      close: { text: 'Cancel' },
    });
    expect(view.submit).toBeUndefined();
    expect(JSON.stringify(view.blocks)).toContain('Loading…');
    expect(readMetadata(view.private_metadata ?? '')).toEqual(m);
    expect(world.sim.requests).toHaveLength(0);
    expect(viewProblems(view)).toEqual([]);
  });

  it('loads branches and the images of the first branch, newest tags first', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    expect(view.submit?.text).toBe('Preview');
    expect(optionValues(view, 'sourceBranch')).toEqual(['dev', 'prod']);
    expect(initialOption(view, 'sourceBranch')).toBe('dev');
    expect(input(view, 'sourceBranch')).toMatchObject({
      dispatch_action: true,
      element: { action_id: MODAL_RELOAD_ACTION },
    });
    expect(optionValues(view, 'image')).toEqual([
      'game-server:1.2.0',
      'game-server:1.1.0',
      'game-server:1.0.0',
      'sidecar-metrics:0.3.0',
    ]);
    expect(optionValues(view, 'targetBranch')).toEqual(['dev', 'prod']);
    expect(initialOption(view, 'targetBranch')).toBeUndefined();
    expect(viewProblems(view)).toEqual([]);
  });

  it('reloads with the chosen source branch and resets the image select', async () => {
    const first = await loadedView(m, world.deps, silentLogger);
    const chosen = fill(first, { sourceBranch: 'prod', image: 'game-server:1.2.0', targetBranch: 'dev' });
    const view = await loadedView(m, world.deps, silentLogger, chosen);
    expect(initialOption(view, 'sourceBranch')).toBe('prod');
    expect(optionValues(view, 'image')).toEqual(['game-server:1.0.0']);
    // 1.2.0 is not in prod: nothing preselected, and a new action id so Slack drops the old choice.
    expect(initialOption(view, 'image')).toBeUndefined();
    expect(input(view, 'image').element.action_id).not.toBe(input(first, 'image').element.action_id);
    expect(initialOption(view, 'targetBranch')).toBe('dev');
  });

  it('reads a submission into the exact engine input, which the operation accepts', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    const result = readSubmission(m, fill(view, { image: 'game-server:1.1.0', targetBranch: 'prod' }));
    const input = { image: 'game-server', tag: '1.1.0', sourceBranch: 'dev', targetBranch: 'prod' };
    expect(result).toEqual({ ok: true, operation: 'image.promote', input });
    expect(operationModule('image.promote').parse(input)).toEqual(input);
  });

  it('names the blocks of missing choices', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    const result = readSubmission(m, fill(view, { sourceBranch: null }));
    expect(result.ok).toBe(false);
    expect(Object.keys(result.ok ? {} : result.errors).sort()).toEqual([
      'image',
      'sourceBranch',
      'targetBranch',
    ]);
  });

  it('puts the engine’s own checks on the right block (same source and target)', async () => {
    const view = await loadedView(m, world.deps, silentLogger);
    const result = readSubmission(m, fill(view, { image: 'game-server:1.2.0', targetBranch: 'dev' }));
    expect(result).toEqual({
      ok: false,
      errors: { targetBranch: 'must differ from the source branch (both are "dev")' },
    });
  });

  it('maps field problems to blocks, the rest to the image block with the field named', () => {
    expect(
      fieldErrors(m, [
        { field: 'tag', message: 'bad tag' },
        { field: 'image', message: 'bad image' },
        { field: 'sourceBranch', message: 'no such branch' },
        { field: 'promotionName', message: 'odd' },
      ]),
    ).toEqual({
      image: 'bad tag; bad image; promotionName: odd',
      sourceBranch: 'no such branch',
    });
  });
});
