/** Contract: approvals (one per user) and the append-only audit log. */

import { describe, expect, it } from '@jest/globals';
import type { AuditEntry } from '../../../src/store/types.js';
import { type HarnessRef, newChange, T0 } from './harness.js';

/** Registers the approval and audit tests. */
export function approvalsAuditContract(h: HarnessRef): void {
  describe('approvals', () => {
    it('keeps one decision per user and lists them in order', async () => {
      const change = newChange({ status: 'awaiting_approval' });
      await h().store.createChange(change);
      const store = h().store;
      expect(
        await store.addApproval({ changeId: change.id, userId: 'U2', decision: 'approve', at: T0 + 2 }),
      ).toBe(true);
      expect(
        await store.addApproval({
          changeId: change.id,
          userId: 'U1',
          decision: 'reject',
          at: T0 + 1,
          comment: 'no',
        }),
      ).toBe(true);
      // The same person again, even with another decision, is not counted twice.
      expect(
        await store.addApproval({ changeId: change.id, userId: 'U2', decision: 'reject', at: T0 + 3 }),
      ).toBe(false);
      expect(await store.listApprovals(change.id)).toStrictEqual([
        { changeId: change.id, userId: 'U1', decision: 'reject', at: T0 + 1, comment: 'no' },
        { changeId: change.id, userId: 'U2', decision: 'approve', at: T0 + 2 },
      ]);
      expect(await store.listApprovals('other')).toEqual([]);
    });

    it('counts concurrent approvals by the same user once', async () => {
      const change = newChange({ status: 'awaiting_approval' });
      await h().store.createChange(change);
      const peer = await h().openPeer();
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? peer : h().store).addApproval({
            changeId: change.id,
            userId: 'U9',
            decision: 'approve',
            at: T0 + i,
          }),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await h().store.listApprovals(change.id)).toHaveLength(1);
    });

    it('lists the approvals of many changes in one call, each in the order given', async () => {
      const store = h().store;
      const a = newChange({ status: 'awaiting_approval' });
      const b = newChange({ status: 'awaiting_approval' });
      const untouched = newChange({ status: 'awaiting_approval' });
      for (const c of [a, b, untouched]) await store.createChange(c);
      await store.addApproval({ changeId: b.id, userId: 'U2', decision: 'approve', at: T0 + 5 });
      await store.addApproval({ changeId: a.id, userId: 'U3', decision: 'approve', at: T0 + 2 });
      await store.addApproval({ changeId: a.id, userId: 'U1', decision: 'reject', at: T0 + 1 });
      const byChange = await store.listApprovalsFor([a.id, b.id, untouched.id, 'missing']);
      expect([...byChange.keys()]).toEqual([a.id, b.id, untouched.id, 'missing']);
      expect(byChange.get(a.id)).toStrictEqual(await store.listApprovals(a.id));
      expect(byChange.get(a.id)?.map((x) => x.userId)).toEqual(['U1', 'U3']);
      expect(byChange.get(b.id)).toStrictEqual([
        { changeId: b.id, userId: 'U2', decision: 'approve', at: T0 + 5 },
      ]);
      expect(byChange.get(untouched.id)).toEqual([]);
      expect(byChange.get('missing')).toEqual([]);
      expect(await store.listApprovalsFor([])).toEqual(new Map());
      // A list longer than any fixed placeholder count still reads as one statement.
      const many = Array.from({ length: 1500 }, (_, i) => `none-${i}`);
      expect((await store.listApprovalsFor([...many, a.id])).get(a.id)).toHaveLength(2);
    });

    it('refuses an approval for a change that does not exist', async () => {
      await expect(
        h().store.addApproval({ changeId: 'missing', userId: 'U1', decision: 'approve', at: T0 }),
      ).rejects.toThrow();
    });
  });

  describe('audit', () => {
    it('appends entries with increasing ids and round-trips every field', async () => {
      const full: AuditEntry = {
        at: T0,
        changeId: 'chg-a',
        actor: 'U1',
        workspace: 'T1',
        channel: 'C1',
        action: 'api_call',
        operation: 'promote-image',
        params: { image: 'game', tags: ['1.2.3'], nested: { n: 1, ok: true, none: null } },
        outcome: 'ok',
        detail: { status: 200, body: [{ name: 'x' }] },
      };
      const first = await h().store.appendAudit(full);
      const second = await h().store.appendAudit({ at: T0, actor: 'system', action: 'expire' });
      expect(typeof first.id).toBe('number');
      expect(second.id).toBeGreaterThan(first.id as number);
      expect(first).toStrictEqual({ ...full, id: first.id });
      expect(second).toStrictEqual({ at: T0, actor: 'system', action: 'expire', id: second.id });
      expect(await h().store.queryAudit({})).toStrictEqual([first, second]);
    });

    it('queries by change, by time range (inclusive), by actor, ordered by time then id, with a limit', async () => {
      const store = h().store;
      const e1 = await store.appendAudit({ at: T0 + 30, changeId: 'A', actor: 'U1', action: 'apply' });
      const e2 = await store.appendAudit({ at: T0 + 10, changeId: 'A', actor: 'U1', action: 'request' });
      const e3 = await store.appendAudit({ at: T0 + 20, changeId: 'B', actor: 'U2', action: 'request' });
      const e4 = await store.appendAudit({ at: T0 + 20, changeId: 'A', actor: 'U2', action: 'approve' });
      const ids = (list: AuditEntry[]) => list.map((e) => e.id);
      expect(ids(await store.queryAudit({}))).toEqual(ids([e2, e3, e4, e1]));
      expect(ids(await store.queryAudit({ changeId: 'A' }))).toEqual(ids([e2, e4, e1]));
      expect(ids(await store.queryAudit({ from: T0 + 20, to: T0 + 30 }))).toEqual(ids([e3, e4, e1]));
      expect(ids(await store.queryAudit({ from: T0 + 11, to: T0 + 20 }))).toEqual(ids([e3, e4]));
      expect(ids(await store.queryAudit({ changeId: 'A', from: T0 + 15, actor: 'U2' }))).toEqual(ids([e4]));
      expect(ids(await store.queryAudit({ changeId: 'A', limit: 2 }))).toEqual(ids([e2, e4]));
      // History pages back through the log: by action, newest written first, below an id.
      const outcomes = { actions: ['apply', 'approve'], newestFirst: true } as const;
      expect(ids(await store.queryAudit(outcomes))).toEqual(ids([e4, e1]));
      expect(ids(await store.queryAudit({ ...outcomes, beforeId: e4.id as number }))).toEqual(ids([e1]));
      expect(ids(await store.queryAudit({ newestFirst: true, limit: 2 }))).toEqual(ids([e4, e3]));
      expect(await store.queryAudit({ actions: [] })).toEqual([]);
    });

    it('refuses UPDATE and DELETE of audit rows even through raw SQL', async () => {
      const entry = await h().store.appendAudit({ at: T0, actor: 'U1', action: 'confirm', outcome: 'ok' });
      await expect(h().exec(`UPDATE audit SET outcome = 'forged' WHERE id = ${entry.id}`)).rejects.toThrow(
        /append-only/,
      );
      await expect(h().exec(`DELETE FROM audit WHERE id = ${entry.id}`)).rejects.toThrow(/append-only/);
      expect(await h().store.queryAudit({})).toStrictEqual([entry]);
    });

    it('refuses replacing an audit row by its id (REPLACE, INSERT OR REPLACE, upsert)', async () => {
      const entry = await h().store.appendAudit({ at: T0, actor: 'U1', action: 'confirm', outcome: 'ok' });
      const forged = `(${entry.id}, ${T0}, 'U_EVIL', 'confirm', 'forged')`;
      const attempts =
        h().store.kind === 'sqlite'
          ? [
              `INSERT OR REPLACE INTO audit (id, at, actor, action, outcome) VALUES ${forged}`,
              `REPLACE INTO audit (id, at, actor, action, outcome) VALUES ${forged}`,
              `INSERT INTO audit (id, at, actor, action, outcome) VALUES ${forged} ON CONFLICT (id) DO UPDATE SET outcome = 'forged'`,
            ]
          : [
              `INSERT INTO audit (id, at, actor, action, outcome) OVERRIDING SYSTEM VALUE VALUES ${forged} ON CONFLICT (id) DO UPDATE SET outcome = 'forged'`,
            ];
      for (const sql of attempts) await expect(h().exec(sql)).rejects.toThrow(/append-only/);
      expect(await h().store.queryAudit({})).toStrictEqual([entry]);
    });
  });
}
