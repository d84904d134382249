import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { DEFAULT_APPLY_LEASE_MS } from '../../src/changes/apply-lease.js';
import { IN_FLIGHT_SETTLE_MS } from '../../src/changes/settle-outcome.js';
import { flushMicrotasks } from '../../src/runtime/clock.js';
import { failureText } from '../../src/slack/render/failure-text.js';
import { spawnEngineWorker } from './fixtures/spawn-engine-worker.js';
import { type Harness, origin, PROD_ONLY_TAG, startHarness, storeKinds } from './harness.js';

const PROMOTE = {
  operation: 'image.promote' as const,
  input: { image: 'game-server', tag: PROD_ONLY_TAG, sourceBranch: 'prod', targetBranch: 'dev' },
  requester: 'U1',
  origin,
};

describe.each(storeKinds)('recovery of changes left applying (%s store)', (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  /** Leaves the change as a crashed process would: claimed, lease held by the dead apply (no heartbeat any more). */
  async function crashAfterClaim(changeId: string, deadReplica: string, ttlMs = DEFAULT_APPLY_LEASE_MS) {
    const now = h.clock.now();
    await h.store.transitionChange(
      changeId,
      ['pending'],
      'applying',
      { confirmedBy: 'U1', applyingOwner: deadReplica, applyingSince: now },
      { now },
    );
    await h.store.acquireLease(`apply:${changeId}`, `${deadReplica}/apply/1`, ttlMs, now);
  }

  it('the promotion reached the API before the crash: recovery marks it succeeded without promoting again', async () => {
    h = await startHarness({ store: kind });
    const change = await h.engine.request(PROMOTE);
    await crashAfterClaim(change.id, 'replica-dead', 5 * 60_000);
    // The dead process's POST arrived; only its answer was lost.
    await h.client.createImagePromotion({
      apiVersion: 'container/v1',
      kind: 'ImagePromotion',
      metadata: { name: change.applyToken, branch: 'dev' },
      spec: { branch: 'prod', imageName: String(change.preview.facts.imageName) },
    });
    const postsBefore = h.sim.countRequests('POST', '/api/container/v1/imagepromotions');

    // While the dead replica's lease runs, another replica leaves the change alone.
    expect(await h.replica('replica-b').recoverInterrupted()).toEqual([]);
    await h.clock.advance(5 * 60_000 + 1);
    const [recovered] = await h.replica('replica-b').recoverInterrupted();
    expect(recovered).toMatchObject({ id: change.id, status: 'succeeded' });
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(postsBefore);
    const audit = await h.store.queryAudit({ changeId: change.id });
    expect(audit.find((a) => a.action === 'recover')).toMatchObject({
      outcome: 'succeeded',
      actor: 'replica-b',
    });
  });

  it('the crash came before the API call: outcome unknown through the settle window, then failed, nothing applied', async () => {
    h = await startHarness({ store: kind });
    const change = await h.engine.request({
      operation: 'formation.remove',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-1' },
      requester: 'U1',
      origin,
    });
    await crashAfterClaim(change.id, 'replica-a');
    // Even under the same replica id, a restart waits for the dead apply's lease to lapse (30 s).
    expect(await h.engine.recoverInterrupted()).toEqual([]);
    await h.clock.advance(DEFAULT_APPLY_LEASE_MS + 1);
    // Nothing tells recovery the write never left (issue 22.2): unknown while it could still land.
    const [unknown] = await h.engine.recoverInterrupted();
    expect(unknown).toMatchObject({ status: 'applying', error: { kind: 'unconfirmed' } });
    await h.clock.advance(IN_FLIGHT_SETTLE_MS);
    const [recovered] = await h.engine.recoverInterrupted();
    expect(recovered).toMatchObject({ status: 'failed' });
    expect(recovered?.error && failureText(recovered.error)).toMatch(/nothing was changed/);
    expect((await h.client.getFormation('dev', 'lobby')).spec.vessels.map((v) => v.name)).toEqual([
      'lobby-1',
      'lobby-2',
    ]);
    expect(h.sim.countRequests('PATCH', '/api/formation/v1/environments/dev/formations/lobby')).toBe(0);
  });
});

describe('a process killed mid-apply (separate OS process, shared SQLite file)', () => {
  let h: Harness;
  let dir: string;
  afterEach(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is resolved on restart by reading the API, without a second promotion', async () => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-kill-'));
    h = await startHarness({ store: 'sqlite', dataDir: dir, clockStart: Date.now() });
    const change = await h.engine.request(PROMOTE);
    // Hold the promotion POST inside the simulator until the clock moves, so the worker dies waiting.
    h.sim.setFaults([{ method: 'POST', path: '/api/container/v1/imagepromotions/**', latencyMs: 60_000 }]);
    const store = { dataDir: dir };
    const worker = spawnEngineWorker({
      simUrl: h.sim.url,
      token: h.sim.token,
      store,
      replicaId: 'replica-k',
      mode: 'confirm',
      changeId: change.id,
    });
    await h.clock.whenSleeping();
    expect(h.clock.pendingSleeps).toBe(1);
    expect((await h.store.getChange(change.id))?.status).toBe('applying');
    worker.child.kill('SIGKILL');
    await worker.exited;
    await h.clock.advance(60_000);
    await flushMicrotasks();
    h.sim.clearFaults();

    // The restart comes once the dead apply's lease (30 s, no longer renewed) has lapsed; the killed
    // process's replica id alone gives no right to it, since a lease belongs to one apply.
    const restarted = spawnEngineWorker({
      simUrl: h.sim.url,
      token: h.sim.token,
      store,
      replicaId: 'replica-k',
      mode: 'recover',
      changeId: change.id,
      laterMs: DEFAULT_APPLY_LEASE_MS + 1,
    });
    const out = (await restarted.result) as { recovered: { id: string; status: string }[] };
    const promotions = h.sim.countRequests('POST', '/api/container/v1/imagepromotions');
    const exists = await h.client.getImagePromotion('dev', change.applyToken).then(
      () => true,
      () => false,
    );
    // Whatever the dead process managed, the restart reports the truth and never promotes again.
    const expected = exists
      ? { id: change.id, status: 'succeeded' }
      : { id: change.id, status: 'applying', error: expect.objectContaining({ kind: 'unconfirmed' }) };
    expect(out.recovered).toEqual([expect.objectContaining(expected)]);
    expect(promotions).toBeLessThanOrEqual(1);
    expect((await h.store.getChange(change.id))?.status).toBe(exists ? 'succeeded' : 'applying');
  });

  it('a restart under a new replica id recovers the dead apply once its short lease lapsed, not after 5 minutes (defect 11)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'harbor-kill-'));
    h = await startHarness({ store: 'sqlite', dataDir: dir, clockStart: Date.now() });
    const change = await h.engine.request({
      operation: 'formation.remove',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-2' },
      requester: 'U1',
      origin,
    });
    // The PATCH never reaches the formation: the worker dies while the simulator holds it.
    h.sim.setFaults([{ method: 'PATCH', path: '/api/formation/**', latencyMs: 3_600_000 }]);
    const store = { dataDir: dir };
    const worker = spawnEngineWorker({
      simUrl: h.sim.url,
      token: h.sim.token,
      store,
      replicaId: 'host-a-1234',
      mode: 'confirm',
      changeId: change.id,
    });
    await h.sim.whenRequests('PATCH', '/api/formation/');
    worker.child.kill('SIGKILL');
    await worker.exited;
    expect((await h.store.getChange(change.id))?.status).toBe('applying');

    // Outside containers the default replica id (host-pid) changes on every restart.
    const restarted = spawnEngineWorker({
      simUrl: h.sim.url,
      token: h.sim.token,
      store,
      replicaId: 'host-a-5678',
      mode: 'recover',
      changeId: change.id,
      laterMs: 31_000,
    });
    const out = (await restarted.result) as { recovered: { id: string; status: string }[] };
    expect(out.recovered).toEqual([
      expect.objectContaining({
        id: change.id,
        status: 'applying',
        error: expect.objectContaining({ kind: 'unconfirmed' }),
      }),
    ]);
  });
});
