/** Contract: changes (create, read, conditional transitions, listing, expiry) and Slack's table of their messages. */

import { describe, expect, it } from '@jest/globals';
import type { ChangeRecord } from '../../../src/store/types.js';
import { type HarnessRef, MINUTE, newChange, T0 } from './harness.js';

const NESTED = {
  text: 'héllo ✓ "quoted" \\ back\nslash',
  list: [1, 2.5, -3, true, false, null, 'x', { deep: { deeper: [[], {}] } }],
  empty: {},
  big: 9_007_199_254_740_991,
};

/** Registers the change tests. */
export function changeContract(h: HarnessRef): void {
  describe('changes', () => {
    it('lists finished changes whose Slack message does not show their status until marked drawn, the change untouched', async () => {
      await h().store.createChange(newChange({ id: 'posted' }));
      await h().store.createChange(newChange({ id: 'unposted' }));
      await h().store.placeChangeMessage('posted', 'C1', '1.2');
      for (const id of ['posted', 'unposted'])
        await h().store.transitionChange(id, ['pending'], 'succeeded', {}, { now: T0 + 1 });
      const undrawn = () =>
        h()
          .store.undrawnChanges(['succeeded'], 50)
          .then((list) => list.map((c) => c.id));
      expect(await undrawn()).toEqual(['posted']);
      const before = (await h().store.getChange('posted')) as ChangeRecord;
      await h().store.markMessageDrawn('posted', 'succeeded');
      expect(await undrawn()).toEqual([]);
      expect(await h().store.getChange('posted')).toStrictEqual(before);
      expect((await h().store.changeMessages(['posted', 'unposted'])).get('posted')).toEqual({
        changeId: 'posted',
        channel: 'C1',
        messageTs: '1.2',
        drawnStatus: 'succeeded',
      });
    });

    it('claims each notice once among concurrent callers, only in the given statuses, and takes one given back again', async () => {
      await h().store.createChange(
        newChange({
          id: 'asked',
          status: 'awaiting_approval',
          origin: { workspace: 'T1', channel: 'C1' },
        }),
      );
      const before = (await h().store.getChange('asked')) as ChangeRecord;
      const unreminded = () =>
        h()
          .store.listChanges({ status: ['awaiting_approval'], unnoticed: 'reminder' })
          .then((list) => list.map((c) => c.id));
      expect(await unreminded()).toEqual(['asked']);
      // Not in the given statuses: nobody wins.
      expect(await h().store.claimNotice('asked', 'reminder', ['expired'], T0 + 1)).toBeUndefined();
      const claims = await Promise.all(
        Array.from({ length: 8 }, () =>
          h().store.claimNotice('asked', 'reminder', ['awaiting_approval'], T0 + 2),
        ),
      );
      expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
      expect(await unreminded()).toEqual([]);
      const after = (await h().store.getChange('asked')) as ChangeRecord;
      // Bookkeeping only: version and updatedAt stay.
      expect(after).toStrictEqual({ ...before, remindedAt: T0 + 2 });
      // The expiry notice is its own claim.
      expect(after.expiryToldAt).toBeUndefined();
      await h().store.releaseNotice('asked', 'reminder');
      expect(await unreminded()).toEqual(['asked']);
      expect(await h().store.claimNotice('asked', 'reminder', ['awaiting_approval'], T0 + 3)).toBeDefined();
    });

    it('stores what an inverse needs with the applied change, and lets one rollback of N concurrent ones claim it', async () => {
      await h().store.createChange(newChange({ id: 'applied' }));
      const undo = { kind: 'region.scheduling', before: 'Packed', after: 'Distributed', nested: NESTED };
      await h().store.transitionChange(
        'applied',
        ['pending'],
        'succeeded',
        { result: { summary: 'done' }, undo, appliedAt: T0 + 5 },
        { now: T0 + 5 },
      );
      const before = (await h().store.getChange('applied')) as ChangeRecord;
      expect(before.undo).toEqual(undo);
      expect(before.appliedAt).toBe(T0 + 5);
      expect(before.rolledBackBy).toBeUndefined();
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) => h().store.claimRollback('applied', `rb-${i}`, T0 + 6)),
      );
      const won = claims.filter((c) => c !== undefined);
      expect(won).toHaveLength(1);
      const winner = won[0]?.rolledBackBy as string;
      // Bookkeeping only: version and updatedAt stay.
      expect(await h().store.getChange('applied')).toStrictEqual({
        ...before,
        rolledBackBy: winner,
        rolledBackAt: T0 + 6,
      });
      // The holder may claim again (a retried apply); another may not, and cannot release it.
      expect(await h().store.claimRollback('applied', winner, T0 + 7)).toBeDefined();
      const other = winner === 'rb-0' ? 'rb-1' : 'rb-0';
      await h().store.releaseRollback('applied', other);
      expect((await h().store.getChange('applied'))?.rolledBackBy).toBe(winner);
      await h().store.releaseRollback('applied', winner);
      expect((await h().store.getChange('applied'))?.rolledBackBy).toBeUndefined();
      expect(await h().store.claimRollback('applied', other, T0 + 8)).toBeDefined();
      // Only an applied change can be claimed.
      await h().store.createChange(newChange({ id: 'open' }));
      expect(await h().store.claimRollback('open', 'rb-x', T0 + 9)).toBeUndefined();
    });

    it("keeps the ask reply ts in Slack's table, beside where the message is, the change untouched", async () => {
      await h().store.createChange(newChange({ id: 'ask', origin: { workspace: 'T1', channel: 'C1' } }));
      const before = await h().store.getChange('ask');
      await h().store.placeChangeMessage('ask', 'C1', '1.1');
      await h().store.noteAsk('ask', 'C1', '9.9');
      expect((await h().store.changeMessages(['ask'])).get('ask')).toEqual({
        changeId: 'ask',
        channel: 'C1',
        messageTs: '1.1',
        askTs: '9.9',
      });
      expect(await h().store.getChange('ask')).toStrictEqual(before);
    });

    it('creates a change with version 1 and reads it back field for field', async () => {
      const input = newChange({
        origin: { workspace: 'T1', channel: 'C1', threadTs: '1.1', releaseId: 'rel-1' },
        applyToken: 'uuid-1',
      });
      const created = await h().store.createChange(input);
      expect(created).toStrictEqual({ ...input, version: 1 });
      expect(await h().store.getChange(input.id)).toStrictEqual({ ...input, version: 1 });
    });

    it('round-trips nested JSON in request, preview, result and error', async () => {
      const input = newChange({ request: NESTED, preview: [NESTED, 'two'] });
      await h().store.createChange(input);
      const done = await h().store.transitionChange(
        input.id,
        ['pending'],
        'failed',
        { result: { nested: NESTED }, error: { message: 'boom', details: [NESTED] } },
        { now: T0 + 1 },
      );
      const read = (await h().store.getChange(input.id)) as ChangeRecord;
      for (const record of [done as ChangeRecord, read]) {
        expect(record.request).toStrictEqual(NESTED);
        expect(record.preview).toStrictEqual([NESTED, 'two']);
        expect(record.result).toStrictEqual({ nested: NESTED });
        expect(record.error).toStrictEqual({ message: 'boom', details: [NESTED] });
      }
    });

    it('keeps a JSON string a string and JSON null as null (each driver decodes its own JSON)', async () => {
      const input = newChange({ request: '{"looks":"like JSON"}', preview: null });
      await h().store.createChange(input);
      const read = (await h().store.getChange(input.id)) as ChangeRecord;
      expect(read.request).toBe('{"looks":"like JSON"}');
      expect(read.preview).toBeNull();
    });

    it('refuses a row that does not decode, naming the table, the column and what it holds', async () => {
      const input = newChange();
      await h().store.createChange(input);
      // A value its CHECK would refuse, written past it: as a row from a bad restore or a hand edit.
      if (h().store.kind === 'sqlite') await h().exec('PRAGMA ignore_check_constraints = ON');
      else await h().exec('ALTER TABLE changes DROP CONSTRAINT changes_follow_state_check');
      await h().exec(`UPDATE changes SET follow_state = 'shown' WHERE id = '${input.id}'`);
      const err = await h()
        .store.getChange(input.id)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(err).toMatchObject({
        name: 'StoreError',
        code: 'HARBOR_BAD_ROW',
        message: expect.stringMatching(/^a changes row does not hold what it should: follow_state: .*"due"/),
      });
      await expect(h().store.listChanges({})).rejects.toMatchObject({ code: 'HARBOR_BAD_ROW' });
    });

    it('returns undefined for an unknown id and refuses a duplicate id', async () => {
      const input = newChange();
      await h().store.createChange(input);
      expect(await h().store.getChange('no-such-change')).toBeUndefined();
      await expect(h().store.createChange(input)).rejects.toThrow();
    });

    it('refuses non-integer timestamps in both databases', async () => {
      await expect(h().store.createChange(newChange({ createdAt: T0 + 0.5 }))).rejects.toThrow();
    });

    it('transitions when the status matches, applying the patch and bumping version and updatedAt', async () => {
      const input = newChange();
      await h().store.createChange(input);
      const claimed = await h().store.transitionChange(
        input.id,
        ['pending', 'approved'],
        'applying',
        { confirmedBy: 'U_CLICK', applyingOwner: 'replica-a', applyingSince: T0 + 5, applyToken: 'tok' },
        { now: T0 + 5 },
      );
      expect(claimed).toStrictEqual({
        ...input,
        status: 'applying',
        confirmedBy: 'U_CLICK',
        applyingOwner: 'replica-a',
        applyingSince: T0 + 5,
        applyToken: 'tok',
        updatedAt: T0 + 5,
        version: 2,
      });
      expect(await h().store.getChange(input.id)).toStrictEqual(claimed);
    });

    it('refuses a transition from the wrong status and leaves the record untouched', async () => {
      const input = newChange({ status: 'succeeded' });
      await h().store.createChange(input);
      expect(
        await h().store.transitionChange(input.id, ['pending'], 'applying', {}, { now: T0 + 1 }),
      ).toBeUndefined();
      expect(await h().store.transitionChange(input.id, [], 'applying', {}, { now: T0 + 1 })).toBeUndefined();
      expect(await h().store.transitionChange('missing', ['pending'], 'applying')).toBeUndefined();
      expect(await h().store.getChange(input.id)).toStrictEqual({ ...input, version: 1 });
    });

    it('honours expectVersion', async () => {
      const input = newChange();
      await h().store.createChange(input);
      const opts = (expectVersion: number) => ({ now: T0 + 1, expectVersion });
      expect(await h().store.transitionChange(input.id, ['pending'], 'pending', {}, opts(2))).toBeUndefined();
      const v2 = await h().store.transitionChange(
        input.id,
        ['pending'],
        'pending',
        { preview: 'p2' },
        opts(1),
      );
      expect(v2).toMatchObject({ version: 2, preview: 'p2', status: 'pending' });
      expect(
        await h().store.transitionChange(input.id, ['pending'], 'awaiting_approval', {}, opts(1)),
      ).toBeUndefined();
      expect(
        await h().store.transitionChange(input.id, ['pending'], 'awaiting_approval', {}, opts(2)),
      ).toMatchObject({
        version: 3,
        status: 'awaiting_approval',
      });
    });

    it('clears a field given as undefined, keeps absent ones, and keeps updatedAt without opts', async () => {
      const input = newChange({
        status: 'applying',
        applyingOwner: 'dead-replica',
        applyingSince: T0,
        applyToken: 't',
      });
      await h().store.createChange(input);
      const recovered = await h().store.transitionChange(input.id, ['applying'], 'succeeded', {
        applyingOwner: undefined,
        result: { promoted: true },
      });
      const { applyingOwner: _cleared, ...rest } = input;
      expect(recovered).toStrictEqual({
        ...rest,
        status: 'succeeded',
        result: { promoted: true },
        version: 2,
      });
      expect(await h().store.getChange(input.id)).toStrictEqual(recovered);
      expect(recovered?.applyingSince).toBe(T0);
      expect(recovered?.updatedAt).toBe(T0);
    });

    it('lets exactly one of 50 concurrent claims from two stores win', async () => {
      const input = newChange();
      await h().store.createChange(input);
      const peer = await h().openPeer();
      const claims = Array.from({ length: 50 }, (_, i) =>
        (i % 2 === 0 ? h().store : peer).transitionChange(
          input.id,
          ['pending', 'approved'],
          'applying',
          { applyingOwner: `claimer-${i}`, applyingSince: T0 + i },
          { now: T0 + i },
        ),
      );
      const results = await Promise.all(claims);
      const winners = results.filter((r): r is ChangeRecord => r !== undefined);
      expect(winners).toHaveLength(1);
      const final = await h().store.getChange(input.id);
      expect(final).toMatchObject({
        status: 'applying',
        version: 2,
        applyingOwner: winners[0]?.applyingOwner,
      });
    });

    it('lists changes by status, requester, release and creation time, oldest first, with a limit', async () => {
      const a = newChange({ createdAt: T0 + 3, requester: 'U_A' });
      const b = newChange({ createdAt: T0 + 1, requester: 'U_B', status: 'awaiting_approval' });
      const c = newChange({
        createdAt: T0 + 2,
        requester: 'U_A',
        origin: { workspace: 'T1', channel: 'C', releaseId: 'R' },
      });
      const d = newChange({ createdAt: T0 + 4, requester: 'U_A', status: 'succeeded' });
      for (const change of [a, b, c, d]) await h().store.createChange(change);
      const ids = (list: ChangeRecord[]) => list.map((x) => x.id);
      expect(ids(await h().store.listChanges({}))).toEqual([b.id, c.id, a.id, d.id]);
      expect(ids(await h().store.listChanges({ status: ['pending', 'awaiting_approval'] }))).toEqual([
        b.id,
        c.id,
        a.id,
      ]);
      expect(ids(await h().store.listChanges({ status: [] }))).toEqual([]);
      expect(ids(await h().store.listChanges({ requester: 'U_A' }))).toEqual([c.id, a.id, d.id]);
      expect(ids(await h().store.listChanges({ releaseId: 'R' }))).toEqual([c.id]);
      expect(ids(await h().store.listChanges({ createdAfter: T0 + 2 }))).toEqual([a.id, d.id]);
      expect(ids(await h().store.listChanges({ requester: 'U_A', status: ['pending'], limit: 1 }))).toEqual([
        c.id,
      ]);
    });

    it('marks a follow-up due with the apply and over as bookkeeping, and lists the due ones', async () => {
      const a = newChange({ createdAt: T0 + 1 });
      const b = newChange({ createdAt: T0 + 2 });
      for (const change of [a, b]) await h().store.createChange(change);
      await h().store.transitionChange(
        a.id,
        ['pending'],
        'succeeded',
        { followState: 'due', appliedAt: T0 + 5 },
        { now: T0 + 5 },
      );
      await h().store.transitionChange(
        b.id,
        ['pending'],
        'succeeded',
        { appliedAt: T0 + 6 },
        { now: T0 + 6 },
      );
      const ids = (list: ChangeRecord[]) => list.map((x) => x.id);
      expect(ids(await h().store.listChanges({ followDue: true }))).toEqual([a.id]);
      const before = (await h().store.getChange(a.id)) as ChangeRecord;
      expect(before.followState).toBe('due');
      expect((await h().store.getChange(b.id))?.followState).toBeUndefined();
      await h().store.markFollowedUp(a.id);
      // Bookkeeping only: version and updatedAt stay.
      expect(await h().store.getChange(a.id)).toStrictEqual({ ...before, followState: 'over' });
      expect(await h().store.listChanges({ followDue: true })).toEqual([]);
      // Only a due one moves: one without a follow-up stays without.
      await h().store.markFollowedUp(b.id);
      expect((await h().store.getChange(b.id))?.followState).toBeUndefined();
    });

    it('lists changes applied after a time, leaving out those never applied', async () => {
      const early = newChange({ createdAt: T0 + 1 });
      const late = newChange({ createdAt: T0 + 2 });
      const never = newChange({ createdAt: T0 + 3 });
      for (const change of [early, late, never]) await h().store.createChange(change);
      for (const [change, at] of [
        [early, T0 + 10],
        [late, T0 + 20],
      ] as const) {
        await h().store.transitionChange(change.id, ['pending'], 'succeeded', { appliedAt: at }, { now: at });
      }
      const ids = (list: ChangeRecord[]) => list.map((x) => x.id);
      expect(ids(await h().store.listChanges({ appliedAfter: T0 + 10 }))).toEqual([late.id]);
      expect(ids(await h().store.listChanges({ appliedAfter: T0 }))).toEqual([early.id, late.id]);
    });

    it('expires open changes whose time has come, and only those', async () => {
      const due = newChange({ createdAt: T0 + 2, expiresAt: T0 + MINUTE });
      const dueAwaiting = newChange({
        createdAt: T0 + 1,
        status: 'awaiting_approval',
        expiresAt: T0 + MINUTE - 1,
      });
      const dueApproved = newChange({ createdAt: T0 + 3, status: 'approved', expiresAt: T0 });
      const later = newChange({ expiresAt: T0 + MINUTE + 1 });
      const applying = newChange({ status: 'applying', expiresAt: T0 });
      const done = newChange({ status: 'succeeded', expiresAt: T0 });
      for (const change of [due, dueAwaiting, dueApproved, later, applying, done])
        await h().store.createChange(change);

      const expired = await h().store.expireChanges(T0 + MINUTE);
      expect(expired.map((c) => c.id)).toEqual([dueAwaiting.id, due.id, dueApproved.id]);
      for (const change of expired)
        expect(change).toMatchObject({ status: 'expired', updatedAt: T0 + MINUTE, version: 2 });
      expect(await h().store.expireChanges(T0 + MINUTE)).toEqual([]);
      expect((await h().store.getChange(later.id))?.status).toBe('pending');
      expect((await h().store.getChange(applying.id))?.status).toBe('applying');
      expect((await h().store.getChange(done.id))?.status).toBe('succeeded');
      // An expired change can no longer be claimed.
      expect(
        await h().store.transitionChange(due.id, ['pending'], 'applying', {}, { now: T0 + MINUTE }),
      ).toBeUndefined();
    });
  });
}
