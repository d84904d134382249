/** API failures while loading: a fault or a stopped simulator becomes a view that says so and can be closed. */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createMemoryLogger, silentLogger } from '../../../src/runtime/logger.js';
import { MODAL_RELOAD_ACTION } from '../../../src/slack/ids.js';
import { viewProblems } from '../../../src/slack/limits.js';
import { loadedView } from '../../../src/slack/modals/index.js';
import { meta, startWorld, type World } from './helpers.js';

let world: World | undefined;
afterEach(() => world?.sim.stop());

function text(view: unknown): string {
  return JSON.stringify(view);
}

describe('modal load failures', () => {
  it('translates an API 403 and offers a retry and Close, no submit', async () => {
    world = await startWorld();
    world.sim.setFaults([{ path: '/api/container/v1/images/**', status: 403 }]);
    const view = await loadedView(meta('promote'), world.deps, silentLogger);
    expect(view.submit).toBeUndefined();
    expect(view.close?.text).toBe('Close');
    expect(text(view)).toContain('The hosting API refused');
    expect(text(view)).toContain(MODAL_RELOAD_ACTION);
    expect(viewProblems(view)).toEqual([]);
  });

  it('says the API is unreachable when the simulator is stopped', async () => {
    world = await startWorld();
    await world.sim.stop();
    const view = await loadedView(meta('vessel.create', { environment: 'dev' }), world.deps, silentLogger);
    expect(text(view)).toContain('The hosting API is unreachable');
    expect(view.submit).toBeUndefined();
  });

  it('logs an internal error under an id and shows only the id', async () => {
    world = await startWorld();
    const logger = createMemoryLogger();
    const broken = {
      ...world.deps,
      queries: {
        ...world.deps.queries,
        regions: () => Promise.reject(new TypeError('boom at line 3')),
      },
    };
    const view = await loadedView(
      meta('formation.add', { environment: 'dev', formation: 'lobby' }),
      broken,
      logger,
    );
    const id = /internal error \(id ([0-9a-f]{8})\)/.exec(text(view))?.[1];
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(text(view)).not.toContain('boom');
    expect(logger.lines.some((l) => l.includes(id ?? '?') && l.includes('boom at line 3'))).toBe(true);
  });
});
