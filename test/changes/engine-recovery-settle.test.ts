/**
 * Issue 22, point 2: the replica applying a change is killed while the API
 * holds its write. Recovery must settle it as an in-process failure would:
 * "outcome unknown" while the write may still land, re-reading on every pass,
 * Done when the write shows, Failed only once the settle window has passed
 * without it. Separate OS processes on one store, SQLite and PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { DEFAULT_APPLY_LEASE_MS } from '../../src/changes/apply-lease.js';
import { IN_FLIGHT_SETTLE_MS } from '../../src/changes/settle-outcome.js';
import type { FaultRule } from '../../src/simulator/types.js';
import { failureText } from '../../src/slack/render/failure-text.js';
import { spawnEngineWorker } from './fixtures/spawn-engine-worker.js';
import { type Harness, origin, startHarness, storeKinds } from './harness.js';

const FORMATION = '/api/formation/v1/environments/dev/formations/lobby';
const REMOVE = {
  operation: 'formation.remove' as const,
  input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-2' },
  requester: 'U1',
  origin,
};
/** Past the dead apply's lease, whatever the few seconds between the harness's clock start and the claim. */
const LEASE_LAPSED_MS = DEFAULT_APPLY_LEASE_MS + 10_000;

describe.each(storeKinds)('recovery of a killed apply (%s store)', (kind) => {
  let h: Harness;
  let dir: string | undefined;
  afterEach(async () => {
    await h.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const vessels = async () => (await h.client.getFormation('dev', 'lobby')).spec.vessels.map((v) => v.name);

  /** Starts a confirm in another OS process, kills it once the API holds its PATCH (`fault`); returns the change id. */
  async function killMidApply(fault: Omit<FaultRule, 'path'>): Promise<string> {
    dir = kind === 'sqlite' ? mkdtempSync(join(tmpdir(), 'harbor-settle-')) : undefined;
    h = await startHarness({ store: kind, ...(dir ? { dataDir: dir } : {}), clockStart: Date.now() });
    const change = await h.engine.request(REMOVE);
    h.sim.setFaults([{ method: 'PATCH', path: FORMATION, times: 1, ...fault }]);
    const store = dir
      ? { dataDir: dir }
      : { databaseUrl: process.env.HARBOR_TEST_DATABASE_URL, schema: h.schema };
    const worker = spawnEngineWorker({
      simUrl: h.sim.url,
      token: h.sim.token,
      store,
      replicaId: 'replica-k',
      mode: 'confirm',
      changeId: change.id,
    });
    await h.sim.whenRequests('PATCH', FORMATION);
    worker.child.kill('SIGKILL');
    await worker.exited;
    return change.id;
  }

  it('a write that lands 75 s after its replica died: outcome unknown, then Done, never "nothing was changed"', async () => {
    // The API keeps the body, and applies it 75 s after the client has gone.
    const id = await killMidApply({ afterWrite: 'land-late', landAfterMs: 75_000 });
    await h.clock.whenSleeping();
    await h.clock.advance(LEASE_LAPSED_MS);
    const [first] = await h.replica('replica-b').recoverInterrupted();
    expect(first).toMatchObject({
      id,
      status: 'applying',
      error: { kind: 'unconfirmed', mayStillLand: true },
    });
    expect(first?.error && failureText(first.error)).not.toMatch(/nothing was changed/);
    expect(await vessels()).toEqual(['lobby-1', 'lobby-2']);

    // The write lands; the next pass reads it.
    await h.clock.advance(75_000 - LEASE_LAPSED_MS);
    await until(async () => (await vessels()).length === 1);
    const [second] = await h.replica('replica-b').recoverInterrupted();
    expect(second).toMatchObject({ id, status: 'succeeded' });
    const audit = await h.store.queryAudit({ changeId: id, actions: ['recover'] });
    expect(audit.map((a) => a.outcome)).toEqual(['unconfirmed', 'succeeded']);
    expect(h.sim.countRequests('PATCH', FORMATION)).toBe(1);
  });

  it('a write that never lands: outcome unknown for the settle window, then Failed with nothing changed', async () => {
    const id = await killMidApply({ latencyMs: 3_600_000 });
    await h.clock.advance(LEASE_LAPSED_MS);
    const [first] = await h.replica('replica-b').recoverInterrupted();
    expect(first).toMatchObject({ id, status: 'applying', error: { kind: 'unconfirmed' } });
    // Passes within the window change nothing: the message stays "outcome unknown".
    await h.clock.advance(IN_FLIGHT_SETTLE_MS / 2);
    expect(await h.replica('replica-b').recoverInterrupted()).toEqual([]);
    await h.clock.advance(IN_FLIGHT_SETTLE_MS / 2);
    const [last] = await h.replica('replica-b').recoverInterrupted();
    expect(last).toMatchObject({ id, status: 'failed' });
    expect(last?.error).toMatchObject({ kind: 'never_landed' });
    expect(last?.error && failureText(last.error)).toMatch(/never showed the change, so nothing was changed/);
    expect(await vessels()).toEqual(['lobby-1', 'lobby-2']);
  });
});

/** Lets I/O run until `cond` holds (the simulator applying a held write), at most 200 turns. */
async function until(cond: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (await cond()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error('condition never held');
}
