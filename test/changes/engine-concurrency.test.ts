import { afterEach, describe, expect, it } from '@jest/globals';
import { spawnEngineWorker } from './fixtures/spawn-engine-worker.js';
import { type Harness, origin, PROD_ONLY_TAG, pgUrl, startHarness, storeKinds } from './harness.js';

describe.each(storeKinds)('concurrent clicks (%s store)', (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('50 concurrent confirms of one change, across two replicas, apply it exactly once', async () => {
    h = await startHarness({ store: kind });
    const change = await h.engine.request({
      operation: 'image.promote',
      input: { image: 'game-server', tag: PROD_ONLY_TAG, sourceBranch: 'prod', targetBranch: 'dev' },
      requester: 'U1',
      origin,
    });
    const replicas = [h.engine, h.replica('replica-b')];
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (replicas[i % 2] as typeof h.engine).confirm({
          changeId: change.id,
          user: 'U1',
          channel: 'C1',
          team: 'T1',
        }),
      ),
    );
    const kinds = outcomes.map((o) => o.kind);
    expect(kinds.filter((k) => k === 'applied')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'stale')).toHaveLength(49);
    for (const o of outcomes) {
      if (o.kind !== 'stale') continue;
      // Being applied by U1, held by another click of U1's (only the requester confirms a pending
      // change, so the bot may tell them it is their own), or already done by U1.
      expect(['applying', 'busy', 'succeeded']).toContain(o.reason.kind);
      expect(o.reason).toMatchObject({ by: 'U1' });
    }
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(1);
  });

  it('the formation race: a vessel appended and another removed underneath never removes the wrong one', async () => {
    h = await startHarness({ store: kind });
    const change = await h.engine.request({
      operation: 'formation.remove',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-2' },
      requester: 'U1',
      origin,
    });
    expect(change.preview.facts.index).toBe(1);
    // Between preview and confirm, someone removes lobby-1 (lobby-2 moves to index 0) and appends lobby-5.
    await h.client.removeVesselFromFormation('dev', 'lobby', 'lobby-1');
    await h.client.appendVesselToFormation('dev', 'lobby', { name: 'lobby-5', region: 'eu-central' });
    const out = await h.engine.confirm({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' });
    expect(out.kind).toBe('applied');
    const names = (await h.client.getFormation('dev', 'lobby')).spec.vessels.map((v) => v.name);
    expect(names).toEqual(['lobby-5']);
  });
});

const describePg = pgUrl ? describe : describe.skip;

describePg('two OS processes racing on one PostgreSQL change', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('applies it exactly once', async () => {
    h = await startHarness({ store: 'postgres', clockStart: Date.now() });
    const change = await h.engine.request({
      operation: 'image.promote',
      input: { image: 'game-server', tag: PROD_ONLY_TAG, sourceBranch: 'prod', targetBranch: 'dev' },
      requester: 'U1',
      origin,
    });
    const store = { databaseUrl: pgUrl, schema: h.schema };
    const workers = ['proc-1', 'proc-2'].map((replicaId) =>
      spawnEngineWorker({
        simUrl: h.sim.url,
        token: h.sim.token,
        store,
        replicaId,
        mode: 'confirm',
        changeId: change.id,
        waitForGo: true,
      }),
    );
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    const results = await Promise.all(workers.map((w) => w.result));
    expect(results.map((r) => r.kind).sort()).toEqual(['applied', 'stale']);
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(1);
  });
});
