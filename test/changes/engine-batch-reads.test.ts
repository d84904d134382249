/**
 * The engine reads a list of changes with their approvals in a fixed number
 * of store calls, not one query per change: the approvals list
 * (`approvableBy`), expiry (`expireDue`) and the housekeeping repair of
 * change messages (`ChangeMessages.repair`, which reads the store itself)
 * cost the same for 2 changes as for 8.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ChangeEngine } from '../../src/changes/engine.js';
import { Events } from '../../src/runtime/events.js';
import { silentLogger } from '../../src/runtime/logger.js';
import type { ChangeMessageDeps } from '../../src/slack/change-messages/deps.js';
import { ChangeMessages } from '../../src/slack/change-messages/owner.js';
import { countingStore } from '../support/counting-store.js';
import { type Harness, origin, startHarness, storeKinds } from './harness.js';

const PROMOTE_TO_PROD = {
  operation: 'image.promote' as const,
  input: { image: 'game-server', tag: '1.2.0', sourceBranch: 'dev', targetBranch: 'prod' },
  requester: 'U1',
  origin,
};

describe.each(storeKinds)('batch reads (%s)', (kind) => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  /** An engine on the harness's store whose store calls are counted. */
  function countedEngine() {
    const counted = countingStore(h.store);
    const engine = new ChangeEngine({
      client: h.client,
      store: counted.store,
      policy: h.policy,
      clock: h.clock,
      logger: silentLogger,
      replicaId: 'counted',
    });
    return { engine, counted };
  }

  /** `n` changes awaiting approval, each approved once by U2 (the default policy wants one approver). */
  async function awaiting(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      // A millisecond apart, so the store's oldest-first order is the order of creation.
      await h.clock.advance(1);
      const change = await h.engine.request(PROMOTE_TO_PROD);
      await h.store.addApproval({
        changeId: change.id,
        userId: 'U9',
        decision: 'approve',
        at: h.clock.now(),
      });
      ids.push(change.id);
    }
    return ids;
  }

  it('approvableBy reads changes and approvals in two calls, whatever their number', async () => {
    h = await startHarness({ store: kind });
    const { engine, counted } = countedEngine();
    const few = await awaiting(2);
    const listed = await engine.approvableBy('U2', 'C1', 'T1');
    expect(listed.map((c) => c.id)).toEqual(few);
    expect(listed[0]?.approvals.map((a) => a.userId)).toEqual(['U9']);
    const forFew = counted.total();
    counted.reset();
    const more = await awaiting(6);
    expect((await engine.approvableBy('U2', 'C1', 'T1')).map((c) => c.id)).toEqual([...few, ...more]);
    expect(counted.total()).toBe(forFew);
    expect(Object.fromEntries(counted.calls)).toEqual({ listChanges: 1, listApprovalsFor: 1 });
  });

  it('expireDue reads the approvals of all expired changes at once', async () => {
    h = await startHarness({ store: kind });
    const { engine, counted } = countedEngine();
    const ids = await awaiting(5);
    await h.clock.advance(25 * 60 * 60_000);
    const expired = await engine.expireDue();
    expect(expired.map((c) => [c.id, c.status, c.approvals.length])).toEqual(
      ids.map((id) => [id, 'expired', 1]),
    );
    // One transaction: one expiry statement, one approvals read and the event's outbox row; an audit line per change.
    expect(Object.fromEntries(counted.calls)).toEqual({
      atomically: 1,
      expireChanges: 1,
      listApprovalsFor: 1,
      appendOutbox: 1,
      appendAudit: 5,
    });
  });

  it('the repair of change messages reads the approvals and the places of all undrawn changes at once', async () => {
    h = await startHarness({ store: kind });
    const counted = countingStore(h.store);
    const ids = await awaiting(4);
    for (const id of ids) {
      await h.store.placeChangeMessage(id, 'C1', `1700000000.${id.slice(0, 6)}`);
      await h.engine.cancel({ changeId: id, user: 'U1', channel: 'C1', team: 'T1' });
    }
    // Slack as far as the redraws need it: each rewrite is recorded with the approvals it drew.
    const drawn: string[] = [];
    const slack = { chat: { update: async (args: { ts: string }) => void drawn.push(args.ts) } };
    const messages = new ChangeMessages({
      slack: slack as unknown as ChangeMessageDeps['slack'],
      progress: slack as unknown as ChangeMessageDeps['progress'],
      // Sent at once, as the gateway would with slots to spare.
      redraw: async ({ args }) => {
        const given = await args();
        if (given) await slack.chat.update(given as { ts: string });
      },
      clock: h.clock,
      logger: silentLogger,
      store: counted.store,
      engine: h.engine,
      commandName: '/harbor',
      releaseEvents: new Events(),
    });
    counted.reset();
    await messages.repair();
    expect(drawn).toHaveLength(4);
    expect(Object.fromEntries(counted.calls)).toEqual({
      undrawnChanges: 1,
      listApprovalsFor: 1,
      changeMessages: 1,
      markMessageDrawn: 4,
    });
    // Drawn: the next pass finds nothing to repair.
    counted.reset();
    await messages.repair();
    expect(drawn).toHaveLength(4);
  });
});
