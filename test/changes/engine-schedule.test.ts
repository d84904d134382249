/**
 * Scheduled changes in the change engine (issue 41), on the real engine,
 * simulator and store (SQLite, and PostgreSQL when HARBOR_TEST_DATABASE_URL
 * is set): Confirm and Approve happen ahead and nothing is written before the
 * time; at the time exactly one of three replicas (each with its own store
 * connection: a shared SQLite file, one PostgreSQL schema) applies it through
 * the guarded apply; a target that moved is refused naming what moved; a
 * freeze at the time refuses it naming the freeze; Cancel stops it; a late
 * replica applies it within the grace, past it the change is missed;
 * approvals that expire before the time expire it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ClickOutcome } from '../../src/changes/change.js';
import type { RequestInput } from '../../src/changes/engine/options.js';
import { ChangeEngine } from '../../src/changes/engine.js';
import { UserError } from '../../src/errors/user-error.js';
import { Freezes } from '../../src/freezes/manage.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/types.js';
import { click, type Harness, origin, pgUrl, startHarness, storeKinds } from './harness.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const REMOVE: RequestInput = {
  operation: 'formation.remove',
  input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-2' },
  requester: 'U1',
  origin,
  at: 'in 2h',
};

const CONFIRM_POLICY = `
rules:
  - operations: ['*']
    approval: { mode: confirm }
`;

const APPROVAL_POLICY = `
rules:
  - operations: ['*']
    approval: { required: 1, approvers: { users: [UAP2] } }
    expires: 3h
`;

/** The UserError a promise rejects with (fails the test when it resolves). */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
}

describe.each(storeKinds)('scheduled changes in the change engine (%s store)', (kind) => {
  let h: Harness;
  let dir: string | undefined;
  const extra: Store[] = [];
  afterEach(async () => {
    for (const s of extra.splice(0)) await s.close();
    await h.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const start = async (policy = CONFIRM_POLICY) => {
    if (kind === 'sqlite') dir = mkdtempSync(join(tmpdir(), 'harbor-schedule-'));
    h = await startHarness({ store: kind, policy, ...(dir ? { dataDir: dir } : {}) });
  };
  const lobbyVessels = () => h.sim.state.getFormation('dev', 'lobby')?.spec.vessels.map((v) => v.name);
  const formationWrites = () =>
    ['PUT', 'PATCH'].reduce((n, method) => n + h.sim.countRequests(method, '/api/formation/'), 0);
  /** Another replica: its own engine on its own connection to the same database. */
  const replica = async (id: string) => {
    const store = await openStore(
      kind === 'postgres' ? { databaseUrl: pgUrl, schema: h.schema } : { dataDir: dir as string },
    );
    extra.push(store);
    return new ChangeEngine({
      client: h.client,
      store,
      policy: h.policy,
      clock: h.clock,
      logger: silentLogger,
      replicaId: id,
      follow: { pollMs: 1000, timeoutMs: 30_000 },
    });
  };
  const scheduledOf = (out: ClickOutcome) => {
    expect(out.kind).toBe('scheduled');
    return out.change;
  };

  it('is confirmed now, writes nothing before its time, and at its time one of three replicas applies it once', async () => {
    await start();
    const change = await h.engine.request(REMOVE);
    expect(change.status).toBe('pending');
    expect(change.scheduledAt).toBe(h.clock.now() + 2 * HOUR);
    const confirmed = scheduledOf(await h.engine.confirm(click(change.id)));
    expect(confirmed.status).toBe('approved');
    expect(confirmed.confirmedBy).toBe('U1');
    // A second Confirm does not apply it early.
    const again = await h.engine.confirm(click(change.id));
    expect(again.kind).toBe('refused');
    // Housekeeping's expiry leaves it alone past the request's 30 minutes.
    await h.clock.advance(HOUR);
    expect(await h.engine.expireDue()).toEqual([]);
    const replicas = [h.engine, await replica('replica-b'), await replica('replica-c')];
    expect((await Promise.all(replicas.map((r) => r.runScheduled()))).flat()).toEqual([]);
    await h.clock.advance(HOUR - 1);
    expect((await Promise.all(replicas.map((r) => r.runScheduled()))).flat()).toEqual([]);
    expect(lobbyVessels()).toEqual(['lobby-1', 'lobby-2']);
    await h.clock.advance(1);
    const outcomes = (await Promise.all(replicas.map((r) => r.runScheduled()))).flat();
    expect(outcomes.map((o) => o.kind)).toEqual(['applied']);
    expect(lobbyVessels()).toEqual(['lobby-1']);
    expect(formationWrites()).toBe(1);
    const done = await h.engine.get(change.id);
    expect(done?.status).toBe('succeeded');
    expect(done?.appliedAt).toBe(done?.scheduledAt);
    // Later passes on every replica find nothing more to do.
    await h.clock.advance(MINUTE);
    expect((await Promise.all(replicas.map((r) => r.runScheduled()))).flat()).toEqual([]);
    expect(formationWrites()).toBe(1);
    const applies = await h.store.queryAudit({ changeId: change.id, actions: ['apply'] });
    expect(applies).toHaveLength(1);
  });

  it('is refused at its time when the target moved since the preview, naming what moved', async () => {
    await start();
    const change = await h.engine.request(REMOVE);
    await h.engine.confirm(click(change.id));
    // Someone removes the vessel by other means before the time.
    await h.client.removeVesselFromFormation('dev', 'lobby', 'lobby-2');
    await h.clock.advance(2 * HOUR);
    const [out] = await h.engine.runScheduled();
    expect(out?.kind).toBe('failed');
    const failed = await h.engine.get(change.id);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatchObject({ kind: 'user', problem: 'world_moved' });
    expect(JSON.stringify(failed?.error)).toContain('Vessel lobby-2 is no longer in formation lobby');
  });

  it('scheduled into a freeze put after it was confirmed: refused at its time, naming the freeze; nothing written', async () => {
    await start();
    const change = await h.engine.request(REMOVE);
    await h.engine.confirm(click(change.id));
    const freezes = new Freezes({ store: h.store, policy: h.policy, environments: async () => ['dev'] });
    await freezes.freeze(
      { user: 'UFZ7', channel: 'C1', team: 'T1' },
      { environment: 'dev', forMs: 3 * HOUR, reason: 'tournament final' },
      h.clock.now(),
    );
    await h.clock.advance(2 * HOUR);
    const [out] = await h.engine.runScheduled();
    expect(out?.kind).toBe('failed');
    const failed = await h.engine.get(change.id);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toMatchObject({
      kind: 'frozen',
      freeze: { kind: 'manual', env: 'dev', by: 'UFZ7', reason: 'tournament final' },
    });
    expect(lobbyVessels()).toEqual(['lobby-1', 'lobby-2']);
    expect(formationWrites()).toBe(0);
  });

  it('is judged by the freezes at its time: refused at request into a freeze, let through after one', async () => {
    await start();
    const freezes = new Freezes({ store: h.store, policy: h.policy, environments: async () => ['dev'] });
    await freezes.freeze(
      { user: 'UFZ7', channel: 'C1', team: 'T1' },
      { environment: 'dev', forMs: HOUR, reason: 'maintenance' },
      h.clock.now(),
    );
    expect(await refusal(h.engine.request({ ...REMOVE, at: 'in 30m' }))).toContain('frozen by user UFZ7');
    expect(await h.store.listChanges({})).toEqual([]);
    // After the freeze ends it may be requested and confirmed during the freeze.
    const change = await h.engine.request(REMOVE);
    expect(scheduledOf(await h.engine.confirm(click(change.id))).status).toBe('approved');
    await h.clock.advance(2 * HOUR);
    expect((await h.engine.runScheduled()).map((o) => o.kind)).toEqual(['applied']);
  });

  it('Cancel by its requester or an approver stops it until it starts', async () => {
    await start(APPROVAL_POLICY);
    const first = await h.engine.request(REMOVE);
    expect(first.status).toBe('awaiting_approval');
    expect(scheduledOf(await h.engine.approve(click(first.id, 'UAP2'))).status).toBe('approved');
    const byRequester = await h.engine.cancel(click(first.id, 'U1'));
    expect(byRequester.kind).toBe('cancelled');
    const second = await h.engine.request(REMOVE);
    await h.engine.approve(click(second.id, 'UAP2'));
    expect((await h.engine.cancel(click(second.id, 'U9'))).kind).toBe('refused');
    expect((await h.engine.cancel(click(second.id, 'UAP2'))).kind).toBe('cancelled');
    await h.clock.advance(2 * HOUR);
    expect(await h.engine.runScheduled()).toEqual([]);
    expect(lobbyVessels()).toEqual(['lobby-1', 'lobby-2']);
    expect(formationWrites()).toBe(0);
  });

  it('a replica that starts late applies it within the grace (it records when), past it the change is missed', async () => {
    await start();
    const late = await h.engine.request(REMOVE);
    await h.engine.confirm(click(late.id));
    const missed = await h.engine.request({
      ...REMOVE,
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-1' },
      at: 'in 1h',
    });
    await h.engine.confirm(click(missed.id));
    // No replica runs from now until 2 h 5 min later.
    await h.clock.advance(2 * HOUR + 5 * MINUTE);
    const outcomes = await h.engine.runScheduled();
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['applied', 'stale']);
    const applied = await h.engine.get(late.id);
    expect(applied?.status).toBe('succeeded');
    expect((applied?.appliedAt as number) - (applied?.scheduledAt as number)).toBe(5 * MINUTE);
    const gone = await h.engine.get(missed.id);
    expect(gone?.status).toBe('expired');
    expect(gone?.error).toEqual({
      kind: 'missed',
      scheduledAt: missed.scheduledAt,
      lateMs: HOUR + 5 * MINUTE,
      graceMs: 600_000,
    });
    expect(lobbyVessels()).toEqual(['lobby-1']);
    expect(await h.store.queryAudit({ changeId: missed.id, actions: ['missed'] })).toHaveLength(1);
  });

  it('approvals that expire before its time expire it, as the policy says', async () => {
    await start(APPROVAL_POLICY);
    const change = await h.engine.request({ ...REMOVE, at: 'in 4h' });
    expect(change.expiresAt).toBe(h.clock.now() + 3 * HOUR);
    await h.engine.approve(click(change.id, 'UAP2'));
    await h.clock.advance(3 * HOUR);
    await h.engine.runScheduled();
    expect((await h.engine.get(change.id))?.status).toBe('expired');
    await h.clock.advance(HOUR);
    expect(await h.engine.runScheduled()).toEqual([]);
    expect(formationWrites()).toBe(0);
  });

  it('counts approvals given ahead again at its time: an approver who left the group no longer counts', async () => {
    const groups: Record<string, string[]> = { S0SRE: ['UAP2', 'UAP3'] };
    if (kind === 'sqlite') dir = mkdtempSync(join(tmpdir(), 'harbor-schedule-'));
    h = await startHarness({
      store: kind,
      groups,
      policy: `
rules:
  - operations: ['*']
    approval: { required: 1, approvers: { groups: [S0SRE] } }
    expires: 3h
`,
      ...(dir ? { dataDir: dir } : {}),
    });
    const change = await h.engine.request(REMOVE);
    expect((await h.engine.approve(click(change.id, 'UAP2'))).kind).toBe('scheduled');
    groups.S0SRE = ['UAP3'];
    await h.clock.advance(2 * HOUR);
    expect((await h.engine.runScheduled()).map((o) => o.kind)).toEqual(['failed']);
    const failed = await h.engine.get(change.id);
    expect(JSON.stringify(failed?.error)).toContain(
      'Of the people who approved it, 0 may approve it today, and it needs 1.',
    );
    expect(formationWrites()).toBe(0);
  });

  it('refuses a time in the past, unreadable, or too far ahead, with the accepted forms', async () => {
    await start();
    for (const [at, words] of [
      ['2025-12-31T18:00Z', 'is in the past'],
      ['tomorrow evening', 'is not a time I can read'],
      ['in 31d', 'not a delay I can read'],
      ['2026-03-01T00:00Z', 'more than the 30 days'],
    ] as const) {
      const message = await refusal(h.engine.request({ ...REMOVE, at }));
      expect(message).toContain(words);
      expect(message).toContain('`18:00 Europe/Berlin`');
    }
    expect(await h.store.listChanges({})).toEqual([]);
  });
});
