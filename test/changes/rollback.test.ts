/**
 * change.rollback on the real engine, simulator and store (SQLite, and
 * PostgreSQL when HARBOR_TEST_DATABASE_URL is set): every row of the inverse
 * table, the guard (refused before any write, naming what moved and who),
 * once-only (double click, a second rollback, two replicas racing), the
 * rollback window, policy on the rollback and on its inverse, and a release
 * rollback stopped by a refusal in the middle.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Change } from '../../src/changes/change.js';
import type { RequestInput } from '../../src/changes/engine/options.js';
import type { RollbackOutcome } from '../../src/changes/operations/change.rollback/outcome.js';
import { offersRollback } from '../../src/changes/rollback/undo.js';
import { demoData } from '../../src/simulator/demo-data.js';
import {
  applied,
  click,
  collectFollow,
  type Harness,
  origin,
  PROD_ONLY_TAG,
  startHarness,
  storeKinds,
} from './harness.js';

const DAY = 86_400_000;

describe.each(storeKinds)('rollback (%s store)', (kind) => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ store: kind });
  });
  afterEach(async () => {
    await h.close();
  });

  /** Requests and confirms a change as U1; returns it applied. */
  async function apply(input: Omit<RequestInput, 'requester' | 'origin'>, requester = 'U1'): Promise<Change> {
    const change = await h.engine.request({ ...input, requester, origin } as RequestInput);
    return applied(await h.engine.confirm(click(change.id, requester)));
  }

  const rollback = (ids: string[], requester = 'U1', extra: { releaseId?: string } = {}) =>
    h.engine.request({
      operation: 'change.rollback',
      input: { changeIds: ids, ...extra },
      requester,
      origin,
    });

  /** Rolls `original` back (request + confirm) and checks the audit links both ways. */
  async function rollBack(original: Change): Promise<Change> {
    const rb = await rollback([original.id]);
    expect(rb.preview.lines[0]).toEqual({ label: 'Rolls back', value: expect.stringContaining(original.id) });
    expect(rb.preview.lines[1]).toEqual({ label: 'Made by', value: original.requester, person: true });
    const done = applied(await h.engine.confirm(click(rb.id)));
    expect((await h.engine.get(original.id))?.rolledBackBy).toBe(rb.id);
    const onOriginal = await h.store.queryAudit({ changeId: original.id, actions: ['rolled_back'] });
    expect(onOriginal.map((a) => a.detail)).toEqual([{ rollbackId: rb.id }]);
    const onRollback = await h.store.queryAudit({ changeId: rb.id, actions: ['request'] });
    expect(onRollback[0]?.params).toEqual({ changeIds: [original.id] });
    return done;
  }

  const scheduling = async () =>
    (await h.client.getRegion('dev', 'eu-central')).spec.types.find((t) => t.name === 'baremetal')?.template
      ?.scheduling;

  it('an undo stored before issue 39 (with its undo kind) still rolls back: the restore is found by the operation', async () => {
    const original = await apply({
      operation: 'region.scheduling',
      input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
    });
    // As older versions stored it: the same record with a second name for the operation.
    const legacy = { kind: 'scheduling', ...(original.undo as object) };
    expect(
      await h.store.transitionChange(original.id, ['succeeded'], 'succeeded', { undo: legacy }),
    ).toBeDefined();
    expect((await h.engine.get(original.id))?.undo).toEqual(legacy);
    await rollBack(original);
    expect(await scheduling()).toBe('Packed');
  });

  it('region scheduling: sets back the old strategy of that region type', async () => {
    const original = await apply({
      operation: 'region.scheduling',
      input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
    });
    // The undo is region.scheduling's own record (its folder's SchedulingSet): no second name for the operation.
    expect(original.undo).toEqual({
      environment: 'dev',
      region: 'eu-central',
      type: 'baremetal',
      before: 'Packed',
      after: 'Distributed',
    });
    expect(original.appliedAt).toBe(h.clock.now());
    const rb = await rollback([original.id]);
    expect(rb.preview.summary).toBe(
      `Roll back change ${original.id}: Set scheduling of region type baremetal in eu-central (dev) back to Packed`,
    );
    expect(rb.preview.lines).toContainEqual({ label: 'Scheduling', value: 'Distributed → Packed' });
    await h.engine.cancel(click(rb.id));
    await rollBack(original);
    expect(await scheduling()).toBe('Packed');
  });

  it('armada scale: sets back the old min, buffer and max of that entry', async () => {
    const original = await apply({
      operation: 'armada.scale',
      input: { environment: 'dev', name: 'duel', type: 'cloud', minReplicas: 2, maxReplicas: 30 },
    });
    await rollBack(original);
    const entry = (await h.client.getArmada('dev', 'duel')).spec.distribution.find((d) => d.name === 'cloud');
    expect(entry).toMatchObject({ minReplicas: 0, bufferSize: 2, maxReplicas: 20 });
  });

  it('armadaset scale: sets back the old values of that region entry', async () => {
    const original = await apply({
      operation: 'armadaset.scale',
      input: { environment: 'dev', name: 'arena', region: 'eu-central', maxReplicas: 20 },
    });
    await rollBack(original);
    const set = await h.client.getArmadaSet('dev', 'arena');
    const entry = set.spec.armadas.find((a) => a.region === 'eu-central')?.distribution[0];
    expect(entry).toMatchObject({ minReplicas: 4, bufferSize: 2, maxReplicas: 12 });
  });

  it('armada and armadaset image: set back the old image of that container', async () => {
    const before = (await h.client.getArmada('dev', 'duel')).spec.template.spec.containers[0]?.image;
    const armada = await apply({
      operation: 'armada.image',
      input: { environment: 'dev', name: 'duel', image: 'game-server', tag: '1.1.0' },
    });
    const rb = await rollback([armada.id]);
    expect(rb.preview.lines).toContainEqual({
      label: 'Image',
      value: 'game-server:1.1.0 → game-server:1.2.0',
    });
    applied(await h.engine.confirm(click(rb.id)));
    expect((await h.client.getArmada('dev', 'duel')).spec.template.spec.containers[0]?.image).toBe(before);

    const setBefore = (await h.client.getArmadaSet('dev', 'arena')).spec.template.spec.containers[0]?.image;
    const set = await apply({
      operation: 'armadaset.image',
      input: { environment: 'dev', name: 'arena', image: 'game-server', tag: '1.2.0' },
    });
    await rollBack(set);
    expect((await h.client.getArmadaSet('dev', 'arena')).spec.template.spec.containers[0]?.image).toBe(
      setBefore,
    );
  });

  /** Restarts on the demo data with a second prod ImageUpdater, for Armada duel: a promotion into prod rolls out two fleets. */
  async function withDuelUpdater(): Promise<void> {
    await h.close();
    const data = demoData();
    const prod = data.environments.prod;
    if (!prod) throw new Error('the demo data has no prod environment');
    prod.imageUpdaters = [
      ...(prod.imageUpdaters ?? []),
      {
        apiVersion: 'container/v1',
        kind: 'ImageUpdater',
        metadata: { name: 'duel-game-server', environment: 'prod' },
        spec: {
          branch: 'prod',
          imageName: 'game-server',
          targetRef: { apiVersion: 'armada/v1', kind: 'Armada', name: 'duel' },
        },
      },
    ];
    h = await startHarness({ store: kind, sim: { data } });
  }

  const prodImages = async () => ({
    arena: (await h.client.getArmadaSet('prod', 'arena')).spec.template.spec.containers[0]?.image,
    duel: (await h.client.getArmada('prod', 'duel')).spec.template.spec.containers[0]?.image,
  });

  /** Promotes game-server:1.2.0 from dev into prod, approved by U2 (prod needs an approval). */
  async function promoteIntoProd(): Promise<Change> {
    const change = await h.engine.request({
      operation: 'image.promote',
      input: { image: 'game-server', tag: '1.2.0', sourceBranch: 'dev', targetBranch: 'prod' },
      requester: 'U1',
      origin,
    } as RequestInput);
    return applied(await h.engine.approve(click(change.id, 'U2')));
  }

  it('image promotion: sets back the image of each fleet its ImageUpdaters rolled out; the image stays in the branch', async () => {
    await withDuelUpdater();
    const before = await prodImages();
    const original = await promoteIntoProd();
    const landed = String(original.result?.facts.landedName);
    // The ImageUpdaters rolled both out to the promoted copy.
    expect(await prodImages()).toEqual({ arena: landed, duel: landed });
    const rb = await rollback([original.id]);
    expect(rb.preview.lines).toEqual(
      expect.arrayContaining([
        {
          label: 'Image of ArmadaSet arena (prod), container game-server',
          value: 'game-server:1.2.0 → game-server:1.0.0',
        },
        {
          label: 'Image of armada duel (prod), container game-server',
          value: 'game-server:1.2.0 → game-server:1.0.0',
        },
      ]),
    );
    expect(rb.preview.notes).toContain(
      'The promoted image game-server:1.2.0 stays in branch prod: rollback does not delete it.',
    );
    expect(rb.preview.warnings).toContain(
      'ImageUpdaters arena-game-server, duel-game-server roll forward again when a newer game-server tag arrives in prod (auto-update): this rollback lasts only until then.',
    );
    applied(await h.engine.approve(click(rb.id, 'U2')));
    expect((await h.engine.get(original.id))?.rolledBackBy).toBe(rb.id);
    expect(await prodImages()).toEqual(before);
    expect((await h.client.listImages('prod', { image: 'game-server', tag: '1.2.0' })).length).toBe(1);
  });

  it('image promotion guard: refuses before any write when a fleet it rolled out runs another image now, naming it', async () => {
    await withDuelUpdater();
    const before = await prodImages();
    const original = await promoteIntoProd();
    const landed = String(original.result?.facts.landedName);
    await h.client.setTemplateImage(
      { kind: 'Armada', env: 'prod', name: 'duel', container: 'game-server' },
      landed,
      String(before.duel),
    );
    const writes = h.sim.countRequests('PATCH', '/api/armada/v1/environments/prod/armadasets/arena');
    await expect(rollback([original.id])).rejects.toThrow(
      /^Cannot roll back change \S+: container game-server of armada duel \(prod\) now runs \S+, not the promoted game-server:1\.2\.0, set outside Harbormaster since .*Nothing was changed/,
    );
    expect(h.sim.countRequests('PATCH', '/api/armada/v1/environments/prod/armadasets/arena')).toBe(writes);
    expect((await prodImages()).arena).toBe(landed);
  });

  it('image promotion that rolled out to no fleet: not offered, and says why', async () => {
    // dev has no ImageUpdater: the copy lands and no fleet image changes.
    const original = await apply({
      operation: 'image.promote',
      input: { image: 'game-server', tag: PROD_ONLY_TAG, sourceBranch: 'prod', targetBranch: 'dev' },
    });
    // No Roll back button is drawn for it (the messages ask offersRollback).
    expect(original.undo).toMatchObject({ branch: 'dev', targets: [] });
    expect(offersRollback(original.undo)).toBe(false);
    await expect(rollback([original.id])).rejects.toThrow(
      `Change ${original.id} cannot be rolled back: no ImageUpdater rolled game-server out from dev to an Armada, ArmadaSet, Formation or Vessel, so the promotion set no image and there is nothing to set back (the promoted image stays in the branch).`,
    );
  });

  it('formation add: removes that vessel by name, as a destructive change', async () => {
    const original = await apply({
      operation: 'formation.add',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-7', region: 'eu-central' },
    });
    const rb = await rollback([original.id]);
    expect(rb.preview.destructive).toBe(true);
    expect(rb.preview.warnings).toEqual([
      'The formation controller deletes vessel lobby-7. Vessel lobby-7, if allocated, gets a shutdown hint with a deadline (the notice set under Settings → Advanced → Shutdown Notification) and is stopped by then at the latest, with any players still on it; if not allocated, it stops at once.',
    ]);
    await h.engine.cancel(click(rb.id));
    await rollBack(original);
    const names = (await h.client.getFormation('dev', 'lobby')).spec.vessels.map((v) => v.name);
    expect(names).not.toContain('lobby-7');
  });

  it('formation remove: adds the vessel back with the region and overrides it had', async () => {
    const added = await apply({
      operation: 'formation.add',
      input: {
        environment: 'dev',
        formation: 'lobby',
        vessel: 'lobby-8',
        region: 'eu-central',
        overrides: [{ container: 'game-server', args: ['--mode', 'ranked'] }],
      },
    });
    const entryBefore = (await h.client.getFormation('dev', 'lobby')).spec.vessels.find(
      (v) => v.name === 'lobby-8',
    );
    const removed = await apply({
      operation: 'formation.remove',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-8' },
    });
    expect(added.undo).toMatchObject({ environment: 'dev', formation: 'lobby', vessel: { name: 'lobby-8' } });
    const rb = await rollback([removed.id]);
    expect(rb.preview.warnings?.[0]).toMatch(/new vessel named lobby-8/);
    await h.engine.cancel(click(rb.id));
    await rollBack(removed);
    const entry = (await h.client.getFormation('dev', 'lobby')).spec.vessels.find(
      (v) => v.name === 'lobby-8',
    );
    expect(entry).toEqual(entryBefore);
  });

  it('vessel create: deletes it (destructive); vessel delete: creates it again from the spec it had (warned)', async () => {
    const created = await apply({
      operation: 'vessel.create',
      input: {
        environment: 'dev',
        name: 'solo-9',
        region: 'eu-central',
        containers: [{ name: 'gs', branch: 'dev', image: 'game-server:1.2.0' }],
      },
    });
    const spec = (await h.client.getVessel('dev', 'solo-9')).spec;
    const del = await rollback([created.id]);
    expect(del.preview.destructive).toBe(true);
    expect(del.preview.warnings).toEqual([
      'Vessel solo-9, if allocated, gets a shutdown hint with a deadline (the notice set under Settings → Advanced → Shutdown Notification) and is stopped by then at the latest, with any players still on it; if not allocated, it stops at once.',
    ]);
    await h.engine.cancel(click(del.id));
    await rollBack(created);
    expect((await h.client.getVessel('dev', 'solo-9')).status?.state).toBe('Terminating');

    await h.client.createVessel('dev', { metadata: { name: 'solo-8', environment: 'dev' }, spec });
    const uid = (await h.client.getVessel('dev', 'solo-8')).metadata.uid;
    const deleted = await apply({
      operation: 'vessel.delete',
      input: { environment: 'dev', vessel: 'solo-8' },
    });
    // Gone for good before it can come back.
    await collectFollow(h.clock, h.engine.follow(deleted));
    const again = await rollback([deleted.id]);
    expect(again.preview.warnings?.[0]).toMatch(/new vessel with a new game server/);
    await h.engine.cancel(click(again.id));
    await rollBack(deleted);
    const back = await h.client.getVessel('dev', 'solo-8');
    expect(back.spec.template).toEqual(spec.template);
    expect(back.metadata.uid).not.toBe(uid);
  });

  it('guard: refuses before any write when the target moved outside Harbormaster, naming what and since when', async () => {
    const original = await apply({
      operation: 'region.scheduling',
      input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
    });
    const pending = await rollback([original.id]);
    await h.client.setRegionTypeScheduling('dev', 'eu-central', 'baremetal', 'Packed');
    await expect(rollback([original.id])).rejects.toThrow(
      /^Cannot roll back change \S+: scheduling of eu-central\/baremetal is now Packed, set outside Harbormaster since 2026-01-01 00:00 UTC, when that change applied\. Nothing was changed; there is no force option/,
    );
    // The one already previewed is refused at apply, with nothing written and the claim given back.
    const writes = h.sim.countRequests('PATCH', '/api/core/v1/environments/dev/regions/eu-central');
    const out = await h.engine.confirm(click(pending.id));
    expect(out.kind).toBe('failed');
    expect(out.change.error).toMatchObject({ text: expect.stringMatching(/is now Packed, set outside/) });
    expect(h.sim.countRequests('PATCH', '/api/core/v1/environments/dev/regions/eu-central')).toBe(writes);
    expect((await h.engine.get(original.id))?.rolledBackBy).toBeUndefined();
  });

  it('guard: names a later Harbormaster change on the same target', async () => {
    const first = await apply({
      operation: 'armada.scale',
      input: { environment: 'dev', name: 'duel', type: 'cloud', maxReplicas: 30 },
    });
    h.clock.advance(60_000);
    const second = await apply({
      operation: 'armada.scale',
      input: { environment: 'dev', name: 'duel', type: 'cloud', maxReplicas: 40 },
    });
    await expect(rollback([first.id])).rejects.toThrow(
      `set through Harbormaster by change ${second.id} at 2026-01-01 00:01 UTC: roll that one back first`,
    );
    await rollBack(second);
    await rollBack(first);
  });

  it('once: a double click writes once; a change rolled back already says so; two replicas racing: one wins', async () => {
    const original = await apply({
      operation: 'armada.scale',
      input: { environment: 'dev', name: 'duel', type: 'cloud', maxReplicas: 30 },
    });
    const path = '/api/armada/v1/environments/dev/armadas/duel';
    const writes = h.sim.countRequests('PATCH', path);
    const a = await rollback([original.id]);
    const b = await rollback([original.id]);
    const [x, y, z] = await Promise.all([
      h.engine.confirm(click(a.id)),
      h.engine.confirm(click(a.id)),
      h.replica('replica-b').confirm(click(b.id)),
    ]);
    const outcomes = [x, y, z].map((o) => o.kind);
    expect(outcomes.filter((k) => k === 'applied')).toHaveLength(1);
    expect(h.sim.countRequests('PATCH', path)).toBe(writes + 1);
    const holder = (await h.engine.get(original.id))?.rolledBackBy;
    expect([a.id, b.id]).toContain(holder);
    await expect(rollback([original.id])).rejects.toThrow(
      new RegExp(`^Change ${original.id} was already rolled back, by change ${holder} at `),
    );
  });

  it('a rollback is not rolled back, and says why', async () => {
    const original = await apply({
      operation: 'armada.scale',
      input: { environment: 'dev', name: 'duel', type: 'cloud', maxReplicas: 30 },
    });
    const rb = await rollBack(original);
    await expect(rollback([rb.id])).rejects.toThrow(
      /is itself a rollback, and a rollback is not rolled back/,
    );
  });

  it('expiry: Roll back is offered for 7 days; after it, the request and a late confirm explain instead of acting', async () => {
    const original = await apply({
      operation: 'armada.scale',
      input: { environment: 'dev', name: 'duel', type: 'cloud', maxReplicas: 30 },
    });
    h.clock.advance(7 * DAY - 60_000);
    const rb = await rollback([original.id]);
    h.clock.advance(60_000);
    const out = await h.engine.confirm(click(rb.id));
    expect(out.kind).toBe('failed');
    expect(out.change.error).toMatchObject({
      text: expect.stringMatching(/can no longer be rolled back: Roll back is offered for 7 days/),
    });
    await expect(rollback([original.id])).rejects.toThrow(
      /until 2026-01-08 00:00 UTC; HARBOR_ROLLBACK_DAYS\)/,
    );
  });

  it('release: one rollback, newest first; a refusal in the middle stops the rest and says which were rolled back', async () => {
    const oldest = await apply({
      operation: 'armada.scale',
      input: { environment: 'dev', name: 'duel', type: 'cloud', maxReplicas: 30 },
    });
    h.clock.advance(60_000);
    const middle = await apply({
      operation: 'region.scheduling',
      input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
    });
    h.clock.advance(60_000);
    const newest = await apply({
      operation: 'armadaset.scale',
      input: { environment: 'dev', name: 'arena', region: 'eu-central', maxReplicas: 20 },
    });
    const rb = await rollback([oldest.id, middle.id, newest.id], 'U1', { releaseId: 'R1' });
    expect(rb.preview.lines.map((l) => l.label)).toEqual([
      `1. Change ${newest.id}`,
      `2. Change ${middle.id}`,
      `3. Change ${oldest.id}`,
    ]);
    await h.client.setRegionTypeScheduling('dev', 'eu-central', 'baremetal', 'Packed');
    const done = applied(await h.engine.confirm(click(rb.id)));
    const outcome = done.result?.facts as unknown as RollbackOutcome;
    expect(outcome.rolledBack).toEqual([newest.id]);
    expect(outcome.stopped).toMatchObject({
      changeId: middle.id,
      reason: expect.stringMatching(/is now Packed/),
    });
    expect(outcome.notTried).toEqual([oldest.id]);
    expect(done.result?.summary).toBe('Rolled back 1 of 3 changes of this release');
    expect(done.result?.lines.map((l) => l.value)).toEqual([
      expect.stringMatching(/^rolled back: Scale ArmadaSet arena/),
      // On the line labelled with its id, the refusal does not name it again.
      expect.stringMatching(/^not rolled back: scheduling of eu-central\/baremetal is now Packed/),
      `not rolled back: not tried, the rollback stopped at change ${middle.id}`,
    ]);
    expect(done.result?.facts?.partial).toBe(true);
    expect((await h.engine.get(oldest.id))?.rolledBackBy).toBeUndefined();
    expect((await h.engine.get(middle.id))?.rolledBackBy).toBeUndefined();
    expect((await h.engine.get(newest.id))?.rolledBackBy).toBe(rb.id);
  });
});

describe('rollback policy', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  const POLICY = `
version: 1
rules:
  - name: no-rollback-for-u2
    operations: [change.rollback]
    requesters: { users: [U000000001, U000000003] }
    approval: { mode: confirm }
  - name: dev-scale-by-u1-only
    operations: [armada.scale]
    requesters: { users: [U000000001, U000000002] }
    approval: { mode: confirm }
  - name: scheduling-needs-approval
    operations: [region.scheduling]
    approval: { required: 1, approvers: { users: [U000000009] }, allowSelfApproval: false }
  - name: rest
    operations: ['*']
    approval: { mode: confirm }
`;

  it('refuses whoever may not roll back, and whoever may not make the inverse; approval of the inverse is asked once', async () => {
    h = await startHarness({ policy: POLICY });
    const scale = await h.engine.request({
      operation: 'armada.scale',
      input: { environment: 'dev', name: 'duel', type: 'cloud', maxReplicas: 30 },
      requester: 'U000000001',
      origin,
    });
    applied(await h.engine.confirm(click(scale.id, 'U000000001')));
    const ask = (user: string, id = scale.id) =>
      h.engine.request({ operation: 'change.rollback', input: { changeIds: [id] }, requester: user, origin });
    await expect(ask('U000000002')).rejects.toMatchObject({ kind: 'refused' });
    // U000000003 may roll back, but may not scale: the inverse is a scale.
    await expect(ask('U000000003')).rejects.toMatchObject({ kind: 'refused' });
    const refusals = await h.store.queryAudit({ actions: ['refused'] });
    expect(refusals.map((r) => r.actor)).toEqual(['U000000002', 'U000000003']);

    const sched = await h.engine.request({
      operation: 'region.scheduling',
      input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
      requester: 'U000000001',
      origin,
    });
    applied(await h.engine.approve(click(sched.id, 'U000000009')));
    const rb = await ask('U000000001', sched.id);
    expect(rb.status).toBe('awaiting_approval');
    expect(rb.requirement).toMatchObject({ mode: 'approval', rule: 'scheduling-needs-approval' });
    const out = await h.engine.approve(click(rb.id, 'U000000009'));
    expect(out.kind).toBe('applied');
  });
});
