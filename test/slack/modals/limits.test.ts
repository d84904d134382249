/**
 * Huge inputs: 500+ images, 200 regions, 150 branches, 300-character names
 * and a 40-container template. Every view must stay inside Slack's limits,
 * cut lists say so, and what was cut can still be typed and submitted.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ModalView } from '@slack/types';
import { silentLogger } from '../../../src/runtime/logger.js';
import { makeImage } from '../../../src/simulator/images.js';
import { demoData, internalImageName } from '../../../src/simulator/index.js';
import { type ModalMetadata, suggestActionId } from '../../../src/slack/ids.js';
import { LIMITS, viewProblems } from '../../../src/slack/limits.js';
import { SUGGEST_MIN_QUERY } from '../../../src/slack/modals/blocks.js';
import {
  loadedView,
  openingView,
  overrideBlock,
  PROMOTE_BLOCKS,
  readSubmission,
  TYPED_SUFFIX,
  VESSEL_BLOCKS,
} from '../../../src/slack/modals/index.js';
import { fill, initialOption, input, meta, optionValues, startWorld, type World } from './helpers.js';

const LONG = 'x'.repeat(300);
// Branches come from the API: 149 of them, one with a display name too long for an option label.
const EXTRA_BRANCHES = Array.from({ length: 147 }, (_, i) => `zz-branch-${i}`);

let world: World;
beforeAll(async () => {
  const data = demoData();
  for (const b of EXTRA_BRANCHES) data.branches[b] = [];
  data.branchDisplayNames = { ...data.branchDisplayNames, dev: LONG };
  const dev = data.branches.dev ?? [];
  for (let i = 0; i < 500; i++) dev.push(makeImage('dev', 'game-server', `2.${i}.0`));
  dev.push(makeImage('dev', LONG, '1.0.0'), makeImage('dev', 'game-server', `${'9'.repeat(140)}`));
  const env = data.environments.dev ?? {};
  for (let i = 0; i < 200; i++) {
    env.regions?.push({
      apiVersion: 'core/v1',
      kind: 'Region',
      metadata: { name: `region-${i}`, environment: 'dev' },
      spec: { displayName: LONG, types: [{ name: 'cloud', locations: ['fra-1'] }] },
    });
  }
  const image = internalImageName('dev', 'game-server', '1.0.0');
  env.formations?.push({
    apiVersion: 'formation/v1',
    kind: 'Formation',
    metadata: { name: 'big', environment: 'dev' },
    spec: {
      description: LONG,
      template: {
        spec: {
          containers: Array.from({ length: 40 }, (_, i) => ({
            name: `c-${i}`,
            branch: 'dev',
            image,
            args: [LONG, LONG, LONG],
          })),
        },
      },
      vessels: [],
    },
  });
  world = await startWorld(data);
});
afterAll(() => world.sim.stop());

const metas: ModalMetadata[] = [
  meta('promote', { threadTs: '1'.repeat(300), releaseId: LONG }),
  meta('vessel.create', { environment: 'dev', threadTs: '1'.repeat(300) }),
  meta('formation.add', { environment: 'dev', formation: 'big' }),
  meta('region.create', { environment: LONG }),
];

function cutHint(view: ModalView, blockId: string): string {
  return input(view, blockId).hint?.text ?? '';
}

describe('views with huge inputs', () => {
  it.each(metas)('stay inside Slack limits: $kind', async (m) => {
    expect(viewProblems(openingView(m))).toEqual([]);
    const view = await loadedView(m, world.deps, silentLogger);
    // Loaded, not an error view: every change form previews.
    expect(view.submit).toEqual({ type: 'plain_text', text: 'Preview' });
    expect(viewProblems(view)).toEqual([]);
  });

  it('offers 506 images as a type-ahead over the branch, the current one preselected', async () => {
    const m = metas[0] as ModalMetadata;
    const view = await loadedView(m, world.deps, silentLogger);
    const el = input(view, PROMOTE_BLOCKS.image).element;
    expect(el).toMatchObject({
      type: 'external_select',
      action_id: suggestActionId('images', 'dev'),
      min_query_length: SUGGEST_MIN_QUERY,
    });
    expect(cutHint(view, PROMOTE_BLOCKS.image)).toBe('Type to search 506 images in dev, newest first.');
    expect(input(view, PROMOTE_BLOCKS.image).optional).toBe(false);
    const state = fill(view, {
      [PROMOTE_BLOCKS.image]: 'game-server:1.1.0',
      [PROMOTE_BLOCKS.target]: 'prod',
    });
    expect(readSubmission(m, state)).toEqual({
      ok: true,
      operation: 'image.promote',
      input: { image: 'game-server', tag: '1.1.0', sourceBranch: 'dev', targetBranch: 'prod' },
    });
    // Reloaded (another field changed), the chosen image stays chosen.
    const again = await loadedView(m, world.deps, silentLogger, state);
    expect(initialOption(again, PROMOTE_BLOCKS.image)).toBe('game-server:1.1.0');
    const none = readSubmission(m, fill(view, { [PROMOTE_BLOCKS.target]: 'prod' }));
    expect(Object.keys(none.ok ? {} : none.errors)).toEqual([PROMOTE_BLOCKS.image]);
  });

  it('answers a type-ahead with the newest 100 matches, leaving out values too long for an option', async () => {
    const all = await world.deps.queries.suggest('images', 'dev', '', LIMITS.selectOptions);
    expect(all).toHaveLength(LIMITS.selectOptions);
    const found = await world.deps.queries.suggest('images', 'dev', '2.49', LIMITS.selectOptions);
    expect(found.slice(0, 3).map((f) => f.value)).toEqual([
      'game-server:2.499.0',
      'game-server:2.498.0',
      'game-server:2.497.0',
    ]);
    expect(await world.deps.queries.suggest('images', 'no-such-branch', '', 10)).toEqual([]);
  });

  it('cuts 149 branches from the API to 100 options and fits a long display name', async () => {
    const view = await loadedView(metas[0] as ModalMetadata, world.deps, silentLogger);
    expect(optionValues(view, PROMOTE_BLOCKS.source)).toHaveLength(100);
    expect(optionValues(view, PROMOTE_BLOCKS.source)).toContain('dev');
    expect(viewProblems(view)).toEqual([]);
    const typed = input(view, `${PROMOTE_BLOCKS.source}${TYPED_SUFFIX}`);
    expect(typed).toMatchObject({ dispatch_action: true });
  });

  it('lists 100 of 202 regions (200 made up plus the two of the demo) with long display names cut to fit', async () => {
    const m = metas[1] as ModalMetadata;
    const view = await loadedView(m, world.deps, silentLogger);
    expect(optionValues(view, VESSEL_BLOCKS.region)).toHaveLength(100);
    expect(cutHint(view, VESSEL_BLOCKS.region)).toContain('Showing 100 of 202 regions in dev');
    const state = fill(view, {
      [VESSEL_BLOCKS.name]: 'big-1',
      [`${VESSEL_BLOCKS.region}${TYPED_SUFFIX}`]: 'region-150',
      [VESSEL_BLOCKS.image]: 'game-server:2.3.0',
    });
    const result = readSubmission(m, state);
    expect(result.ok && result.input).toMatchObject({
      region: 'region-150',
      containers: [{ image: 'game-server:2.3.0' }],
    });
  });

  it('shows as many template containers as fit and names the rest', async () => {
    const view = await loadedView(metas[2] as ModalMetadata, world.deps, silentLogger);
    expect(view.blocks.length).toBeLessThanOrEqual(LIMITS.modalBlocks);
    expect(input(view, overrideBlock(0, 'c-0', 'args')).hint?.text.length).toBeLessThan(400);
    const shown = view.blocks.filter((b) => /^override\.\d+\.args\./.test(b.block_id ?? ''));
    expect(shown.length).toBeGreaterThan(20);
    expect(shown.length).toBeLessThan(40);
    // The note ends the form's own blocks; every change form's When and Break glass fields follow it.
    expect(JSON.stringify(view.blocks.at(-3))).toContain(
      `${40 - shown.length} more container(s) keep the template`,
    );
  });
});
