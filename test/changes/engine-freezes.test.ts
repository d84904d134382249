/**
 * Freezes in the change engine (issue 41), on the real engine, simulator and
 * store (SQLite, and PostgreSQL when HARBOR_TEST_DATABASE_URL is set): a
 * freeze refuses a change at request (nothing stored, no preview), at
 * Confirm and Approve when put after the preview, and at apply when put
 * between the click and the write (while the apply lease is taken); a `for`
 * freeze expires by itself; `--break-glass` turns a change into one the
 * break-glass approvers (never its requester) approve, and the audit says
 * so; a rollback of a change applied before the freeze still goes through.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Change } from '../../src/changes/change.js';
import type { ChangeEngineStore, RequestInput } from '../../src/changes/engine/options.js';
import { ChangeEngine } from '../../src/changes/engine.js';
import { UserError } from '../../src/errors/user-error.js';
import { Freezes } from '../../src/freezes/manage.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { applied, click, type Harness, origin, startHarness, storeKinds } from './harness.js';

const REMOVE: RequestInput = {
  operation: 'formation.remove',
  input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-2' },
  requester: 'U1',
  origin,
};

const CONFIRM_POLICY = `
break_glass:
  required: 1
  approvers: { users: [UBG9] }
rules:
  - operations: ['*']
    approval: { mode: confirm }
`;

const APPROVAL_POLICY = `
break_glass:
  required: 1
  approvers: { users: [UBG9] }
rules:
  - operations: ['*']
    approval: { required: 1, approvers: { users: [UAP2, UBG9] } }
`;

const NO_BREAK_GLASS = `
rules:
  - operations: ['*']
    approval: { mode: confirm }
`;

const MINUTE = 60_000;

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

describe.each(storeKinds)('freezes in the change engine (%s store)', (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  const freezes = () =>
    new Freezes({ store: h.store, policy: h.policy, environments: async () => ['dev', 'prod'] });
  const freezeDev = (extra: { forMs?: number; until?: number; reason?: string } = {}) =>
    freezes().freeze(
      { user: 'UFZ7', channel: 'C1', team: 'T1' },
      { environment: 'dev', reason: 'tournament final', ...extra },
      h.clock.now(),
    );
  const lobbyVessels = () => h.sim.state.getFormation('dev', 'lobby')?.spec.vessels.map((v) => v.name);

  it('refuses at request, naming who froze it, why and until when; nothing is stored', async () => {
    h = await startHarness({ store: kind, policy: CONFIRM_POLICY });
    await freezeDev({ forMs: 2 * 60 * MINUTE });
    const message = await refusal(h.engine.request(REMOVE));
    expect(message).toContain('Environment dev was frozen by user UFZ7');
    expect(message).toContain(
      `until ${new Date(h.clock.now() + 120 * MINUTE).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    );
    expect(message).toContain('Reason: tournament final.');
    expect(message).toContain('rollbacks of changes applied before the freeze still work');
    expect(message).toContain('--break-glass <reason>');
    expect(await h.store.listChanges({})).toEqual([]);
    const audit = await h.store.queryAudit({ actions: ['refused'] });
    expect(audit.map((a) => a.outcome)).toEqual([message]);
    // Another environment is not frozen.
    await expect(
      h.engine.request({ ...REMOVE, input: { environment: 'prod', formation: 'lobby', vessel: 'x' } }),
    ).rejects.not.toThrow(/frozen/);
  });

  it('a `for` freeze expires by itself: the same request goes through once it ends', async () => {
    h = await startHarness({ store: kind, policy: CONFIRM_POLICY });
    await freezeDev({ forMs: 90_000 });
    await refusal(h.engine.request(REMOVE));
    await h.clock.advance(89_999);
    await refusal(h.engine.request(REMOVE));
    await h.clock.advance(1);
    const change = await h.engine.request(REMOVE);
    expect(applied(await h.engine.confirm(click(change.id))).status).toBe('succeeded');
  });

  it('refuses Confirm when the freeze came after the preview; the change waits and applies after unfreeze', async () => {
    h = await startHarness({ store: kind, policy: CONFIRM_POLICY });
    const change = await h.engine.request(REMOVE);
    await freezeDev();
    const out = await h.engine.confirm(click(change.id));
    expect(out.kind).toBe('refused');
    expect(out.kind === 'refused' && out.message).toContain('until someone unfreezes it (no end was given)');
    expect((await h.engine.get(change.id))?.status).toBe('pending');
    expect(lobbyVessels()).toEqual(['lobby-1', 'lobby-2']);
    const audit = await h.store.queryAudit({ changeId: change.id, actions: ['confirm_refused'] });
    expect(audit).toHaveLength(1);
    await freezes().unfreeze({ user: 'UFZ7', channel: 'C1', team: 'T1' }, 'dev', h.clock.now());
    expect(applied(await h.engine.confirm(click(change.id))).status).toBe('succeeded');
    expect(lobbyVessels()).toEqual(['lobby-1']);
  });

  it('refuses Approve during a freeze without recording the approval', async () => {
    h = await startHarness({ store: kind, policy: APPROVAL_POLICY });
    const change = await h.engine.request(REMOVE);
    expect(change.status).toBe('awaiting_approval');
    await freezeDev();
    const out = await h.engine.approve(click(change.id, 'UAP2'));
    expect(out.kind).toBe('refused');
    expect(await h.store.listApprovals(change.id)).toEqual([]);
    expect(lobbyVessels()).toEqual(['lobby-1', 'lobby-2']);
  });

  it('refuses at apply a freeze put between the click and the write (while the apply lease is taken)', async () => {
    h = await startHarness({ store: kind, policy: CONFIRM_POLICY });
    const change = await h.engine.request(REMOVE);
    // The store the engine is given puts the freeze just as the click takes the apply lease:
    // after Confirm's own check, before the write.
    const store = new Proxy(h.store, {
      get(target, key, receiver) {
        if (key !== 'acquireLease') return Reflect.get(target, key, receiver);
        return async (...args: Parameters<ChangeEngineStore['acquireLease']>) => {
          await freezeDev();
          return target.acquireLease(...args);
        };
      },
    });
    const engine = new ChangeEngine({
      client: h.client,
      store,
      policy: h.policy,
      clock: h.clock,
      logger: silentLogger,
      replicaId: 'replica-gap',
    });
    const out = await engine.confirm(click(change.id));
    expect(out.kind).toBe('refused');
    expect(out.kind === 'refused' && out.message).toContain('Environment dev was frozen by user UFZ7');
    expect((await h.engine.get(change.id))?.status).toBe('pending');
    expect(lobbyVessels()).toEqual(['lobby-1', 'lobby-2']);
    // The lease went with the refusal: once unfrozen, the change applies.
    await freezes().unfreeze({ user: 'UFZ7', channel: 'C1', team: 'T1' }, 'dev', h.clock.now());
    expect(applied(await h.engine.confirm(click(change.id))).status).toBe('succeeded');
  });

  it('--break-glass: only a break-glass approver, never the requester, lets it through; the audit says so', async () => {
    h = await startHarness({ store: kind, policy: APPROVAL_POLICY });
    await freezeDev({ forMs: 60 * MINUTE });
    const change = await h.engine.request({ ...REMOVE, breakGlass: 'lobby-2 crashes every match' });
    expect(change.status).toBe('awaiting_approval');
    expect(change.requirement).toMatchObject({ mode: 'approval', rule: 'break_glass', required: 1 });
    expect(change.breakGlass).toMatchObject({
      reason: 'lobby-2 crashes every match',
      freeze: { kind: 'manual', env: 'dev', by: 'UFZ7', reason: 'tournament final' },
    });
    const self = await h.engine.approve(click(change.id, 'U1'));
    expect(self.kind === 'refused' && self.message).toContain(
      'breaks a freeze: someone else must approve it',
    );
    // UAP2 approves ordinary changes under the rule, but is no break-glass approver.
    const rule = await h.engine.approve(click(change.id, 'UAP2'));
    expect(rule.kind === 'refused' && rule.message).toContain('You are not a break-glass approver');
    const done = applied(await h.engine.approve(click(change.id, 'UBG9')));
    expect(done.status).toBe('succeeded');
    expect(lobbyVessels()).toEqual(['lobby-1']);
    const audit = await h.store.queryAudit({ changeId: change.id, actions: ['request', 'apply'] });
    for (const entry of audit)
      expect(entry.detail).toMatchObject({ breakGlass: { reason: 'lobby-2 crashes every match' } });
    expect(audit.map((a) => a.action).sort()).toEqual(['apply', 'request']);
  });

  it('--break-glass is refused when the policy has no break_glass, and when nothing is frozen', async () => {
    h = await startHarness({ store: kind, policy: NO_BREAK_GLASS });
    await freezeDev();
    expect(await refusal(h.engine.request({ ...REMOVE, breakGlass: 'urgent' }))).toContain(
      'the policy has no `break_glass` section',
    );
    // Without break glass, the refusal says nothing can go through.
    expect(await refusal(h.engine.request(REMOVE))).toContain('The policy names no break-glass approvers');
    await h.close();
    h = await startHarness({ store: kind, policy: CONFIRM_POLICY });
    expect(await refusal(h.engine.request({ ...REMOVE, breakGlass: 'urgent' }))).toContain(
      'No freeze is in force in dev, so there is none to break',
    );
  });

  it('a rollback of a change applied before the freeze goes through; one applied during it does not', async () => {
    h = await startHarness({ store: kind, policy: APPROVAL_POLICY });
    const before = await h.engine.request(REMOVE);
    await h.engine.approve(click(before.id, 'UAP2'));
    await h.clock.advance(MINUTE);
    await freezeDev();
    await h.clock.advance(MINUTE);
    const rb = await h.engine.request({
      operation: 'change.rollback',
      input: { changeIds: [before.id] },
      requester: 'U1',
      origin,
    });
    expect(applied(await h.engine.approve(click(rb.id, 'UAP2'))).status).toBe('succeeded');
    expect(lobbyVessels()).toEqual(['lobby-1', 'lobby-2']);
    // A change that broke the freeze is rolled back only by breaking it again.
    const during: Change = await h.engine.request({ ...REMOVE, breakGlass: 'crashes' });
    applied(await h.engine.approve(click(during.id, 'UBG9')));
    const message = await refusal(
      h.engine.request({
        operation: 'change.rollback',
        input: { changeIds: [during.id] },
        requester: 'U1',
        origin,
      }),
    );
    expect(message).toContain('Environment dev was frozen by user UFZ7');
  });
});
