/**
 * Guarded rollouts (issue 42) on the real engine, simulator (over HTTP,
 * through the real API client) and store, with three replicas sharing one
 * database (a SQLite file; PostgreSQL when HARBOR_TEST_DATABASE_URL is set),
 * each racing its own housekeeping pass of the guards on a ManualClock:
 * - a build that crashes on start is rolled back automatically exactly once,
 *   after the watch settle time, even though the replica guarding it dies
 *   mid-window (another takes over once its lease lapses, keeping the settle
 *   clock); the audit says "automatic rollback by guard, trigger: ...";
 * - a target someone else moved is not written: the guard ends held, saying why;
 * - a healthy build's window passes clean, told once.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Change } from '../../src/changes/change.js';
import { guardRollbackId } from '../../src/changes/engine/guard-rollback.js';
import type { RequestInput } from '../../src/changes/engine/options.js';
import type { ChangeEvent } from '../../src/changes/events.js';
import type { Promotion } from '../../src/changes/operations/image.promote/undo.js';
import { internalImageName } from '../../src/simulator/index.js';
import { applied, click, origin, storeKinds } from '../changes/harness.js';
import { CRASHING_IMAGE, simSend } from '../watches/sim-control.js';
import { passes, type Replicas, startReplicas } from './replicas.js';

const POLICY = `
rules:
  - name: dev-rollouts
    operations: [armada.image, armadaset.image]
    target: { environment: dev }
    approval: { mode: confirm }
    guard: { within: 15m }
  - operations: ['*']
    approval: { mode: confirm }
`;

const MINUTE = 60_000;
const DUEL = '/api/armada/v1/environments/dev/armadas/duel';

const rollOut = (tag: string): RequestInput => ({
  operation: 'armada.image',
  input: { environment: 'dev', name: 'duel', image: 'game-server', tag },
  requester: 'U1',
  origin: { ...origin, messageTs: '1700000000.000100' },
});

const guardedEvents = (events: ChangeEvent[]) =>
  events.filter((e): e is Extract<ChangeEvent, { kind: 'guarded' }> => e.kind === 'guarded');

let r: Replicas | undefined;
afterEach(async () => {
  await r?.close();
  r = undefined;
});

describe.each(storeKinds)('guarded rollouts (%s store, 3 replicas)', (kind) => {
  /** Replaces every unallocated server at once, so a build that cannot start leaves none Ready. */
  const recreate = async () => {
    const { h } = r as Replicas;
    await simSend(
      h.sim,
      'PATCH',
      DUEL,
      { spec: { template: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } } } },
      'application/merge-patch+json',
    );
  };
  const duelImage = () => r?.h.sim.state.getArmada('dev', 'duel')?.spec.template.spec.containers[0]?.image;

  async function applyGuarded(tag: string): Promise<Change> {
    const { replicas } = r as Replicas;
    const engine = (replicas[0] as (typeof replicas)[0]).engine;
    const change = await engine.request(rollOut(tag));
    expect(change.guard).toEqual({ withinMs: 15 * MINUTE, rule: 'dev-rollouts' });
    expect(change.preview.notes).toContain(
      'Guarded: rolled back automatically if its servers do not become Ready, or it goes Degraded, within 15 min (policy rule dev-rollouts).',
    );
    return applied(await engine.confirm(click(change.id)));
  }

  it('rolls a crashing build back automatically, exactly once, though its guarding replica dies mid-window', async () => {
    r = await startReplicas(kind, 3, POLICY);
    const { h, replicas } = r;
    const before = duelImage();
    await recreate();
    h.sim.setCrashingImage('dev', CRASHING_IMAGE, 'exit code 1');
    const change = await applyGuarded('1.0.0');
    expect(duelImage()).toBe(CRASHING_IMAGE);
    const appliedAt = h.clock.now();

    // The first pass: one of the three takes the guard and starts the settle clock.
    await passes(replicas, h.clock, 20_000);
    const first = await h.store.getGuard(change.id);
    expect(first).toMatchObject({ state: 'watching', windowEnd: appliedAt + 15 * MINUTE });
    const holder = replicas.find((x) => first?.owner?.startsWith(`${x.id}/`));
    expect(holder).toBeDefined();
    await passes(replicas, h.clock, 20_000);
    const seen = await h.store.getGuard(change.id);
    expect(Object.keys(seen?.trouble ?? {}).length).toBeGreaterThan(0);

    // The holder dies: the others pass on, refused while its lease lives, then take over.
    const survivors = replicas.filter((x) => x !== holder);
    await passes(survivors, h.clock, 30_000);
    expect((await h.store.getGuard(change.id))?.owner).toBe(seen?.owner);
    for (let t = 0; t < 4; t++) await passes(survivors, h.clock, 30_000);

    const guard = await h.store.getGuard(change.id);
    expect(guard).toMatchObject({ state: 'rolled_back', rollbackId: guardRollbackId(change.id) });
    expect(guard?.owner).not.toBe(seen?.owner);
    expect(guard?.trigger).toMatch(/Armada duel/);
    // Once across replicas: one rollback change, applied by Harbormaster, the build set back.
    const rollbacks = (await h.store.listChanges({})).filter((c) => c.operation === 'change.rollback');
    expect(rollbacks.map((c) => [c.id, c.status, c.requester, c.confirmedBy])).toEqual([
      [guardRollbackId(change.id), 'succeeded', 'harbormaster', 'harbormaster'],
    ]);
    expect(duelImage()).toBe(before);
    const original = await h.store.getChange(change.id);
    expect(original?.rolledBackBy).toBe(guardRollbackId(change.id));
    const audit = await h.store.queryAudit({ changeId: change.id });
    expect(audit.filter((a) => a.action === 'guard_triggered')).toEqual([
      expect.objectContaining({
        actor: 'harbormaster',
        outcome: expect.stringMatching(/^automatic rollback by guard, trigger: .*Armada duel/),
      }),
    ]);
    const rollbackAudit = await h.store.queryAudit({ changeId: guardRollbackId(change.id) });
    expect(rollbackAudit.filter((a) => a.action === 'request')).toEqual([
      expect.objectContaining({
        actor: 'harbormaster',
        outcome: expect.stringMatching(/^automatic rollback by guard, trigger: /),
      }),
    ]);
    // Told once, by the replica that ended it: the outcome kept on the change, with its people.
    const told = replicas.flatMap((x) => guardedEvents(x.events));
    expect(told).toHaveLength(1);
    expect(told[0]?.outcome).toMatchObject({
      state: 'rolled_back',
      rollbackId: guardRollbackId(change.id),
      rule: 'dev-rollouts',
    });
    expect(told[0]?.change.requester).toBe('U1');
    expect(told[0]?.rollback?.status).toBe('succeeded');
    expect((await replicas[1]?.engine.get(change.id))?.result?.facts.guard).toMatchObject({
      state: 'rolled_back',
    });
    // Later passes do nothing more.
    await passes(replicas, h.clock, 30_000);
    expect(replicas.flatMap((x) => guardedEvents(x.events))).toHaveLength(1);
  });

  it('writes nothing when someone else moved the target, and says why with the people named', async () => {
    r = await startReplicas(kind, 3, POLICY);
    const { h, replicas } = r;
    await recreate();
    h.sim.setCrashingImage('dev', CRASHING_IMAGE, 'exit code 1');
    const change = await applyGuarded('1.0.0');
    // Someone rolls duel on to another build that does not start either, in the console.
    const other = internalImageName('dev', 'game-server', '1.1.0');
    h.sim.setCrashingImage('dev', other, 'exit code 2');
    await simSend(
      h.sim,
      'PATCH',
      DUEL,
      [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: other }],
      'application/json-patch+json',
    );
    for (let t = 0; t < 5; t++) await passes(replicas, h.clock, 30_000);

    const guard = await h.store.getGuard(change.id);
    expect(guard?.state).toBe('held');
    expect(guard?.reason).toMatch(
      new RegExp(`^Cannot roll back change ${change.id}: .*set outside Harbormaster`),
    );
    expect(duelImage()).toBe(other);
    expect((await h.store.listChanges({})).filter((c) => c.operation === 'change.rollback')).toEqual([]);
    const told = replicas.flatMap((x) => guardedEvents(x.events));
    expect(told).toHaveLength(1);
    expect(told[0]?.outcome).toMatchObject({ state: 'held', reason: guard?.reason });
    expect(told[0]?.change.requester).toBe('U1');
  });

  it('passes a healthy build after its window, told once', async () => {
    r = await startReplicas(kind, 3, POLICY);
    const { h, replicas } = r;
    const change = await applyGuarded('1.1.0');
    for (let t = 0; t < 31; t++) await passes(replicas, h.clock, 30_000);
    expect(await h.store.getGuard(change.id)).toMatchObject({ state: 'passed' });
    const told = replicas.flatMap((x) => guardedEvents(x.events));
    expect(told.map((e) => e.outcome)).toEqual([{ state: 'passed', withinMs: 15 * MINUTE }]);
    expect(duelImage()).toBe(internalImageName('dev', 'game-server', '1.1.0'));
    expect((await h.store.listChanges({})).filter((c) => c.operation === 'change.rollback')).toEqual([]);
  });
});

describe.each(storeKinds)('a guarded promotion (%s store)', (kind) => {
  const PROMOTE_POLICY = `
rules:
  - name: promotions
    operations: [image.promote]
    approval: { mode: confirm }
    guard: { within: 15m }
  - operations: ['*']
    approval: { mode: confirm }
`;

  it('follows the fleet an ImageUpdater rolls out after the promotion, and rolls the promotion back', async () => {
    // Where game server counts are reported (ArmadaGameServerStates): new servers are seen not to become Ready.
    r = await startReplicas(kind, 3, PROMOTE_POLICY, { serverStates: true });
    const { h, replicas } = r;
    const arenaImage = () =>
      h.sim.state.getArmadaSet('prod', 'arena')?.spec.template.spec.containers[0]?.image;
    const before = arenaImage();
    const engine = (replicas[0] as (typeof replicas)[0]).engine;
    const change = await engine.request({
      operation: 'image.promote',
      input: { image: 'game-server', tag: '1.2.0', sourceBranch: 'dev', targetBranch: 'prod' },
      requester: 'U1',
      origin,
    });
    expect(change.guard).toEqual({ withinMs: 15 * MINUTE, rule: 'promotions' });
    const done = applied(await engine.confirm(click(change.id)));
    // The copy the promotion made in prod does not start; arena rolls onto it through its ImageUpdater.
    const target = (done.undo as Promotion | undefined)?.targets[0];
    expect(target).toMatchObject({ fleet: 'ArmadaSet', environment: 'prod', name: 'arena' });
    h.sim.setCrashingImage('prod', target?.after as string, 'exit code 1');
    for (let t = 0; t < 8; t++) await passes(replicas, h.clock, 30_000);
    const guard = await h.store.getGuard(change.id);
    expect(guard).toMatchObject({ state: 'rolled_back', rollbackId: guardRollbackId(change.id) });
    expect(guard?.trigger).toContain('ArmadaSet arena');
    expect(arenaImage()).toBe(before);
    expect(replicas.flatMap((x) => guardedEvents(x.events)).map((e) => e.outcome.state)).toEqual([
      'rolled_back',
    ]);
  });
});

describe.each(storeKinds)('a guarded change rolled back by a person (%s store)', (kind) => {
  it('ends its guard quietly: nothing more is watched, nothing told', async () => {
    r = await startReplicas(kind, 2, POLICY);
    const { h, replicas } = r;
    const engine = (replicas[0] as (typeof replicas)[0]).engine;
    const change = applied(await engine.confirm(click((await engine.request(rollOut('1.1.0'))).id)));
    await passes(replicas, h.clock, 30_000);
    const rollback = await engine.request({
      operation: 'change.rollback',
      input: { changeIds: [change.id] },
      requester: 'U1',
      origin,
    });
    applied(await engine.confirm(click(rollback.id)));
    await passes(replicas, h.clock, 30_000);
    expect(await h.store.getGuard(change.id)).toMatchObject({
      state: 'held',
      reason: `rolled back by change ${rollback.id} before its guard saw trouble`,
    });
    expect(await h.store.listOpenGuards(10)).toEqual([]);
    expect(replicas.flatMap((x) => guardedEvents(x.events))).toEqual([]);
  });
});
