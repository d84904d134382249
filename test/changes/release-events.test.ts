/**
 * The engine announces every move of a release's change (placed after its
 * request, clicks that moved it, expiry) on the ReleaseEvents it was built with, so release
 * messages redraw without the Slack flows calling them; changes outside a
 * release and clicks that moved nothing announce nothing.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ChangeEngine } from '../../src/changes/engine.js';
import { Events, type ReleaseContentChanged } from '../../src/runtime/events.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { type Harness, origin, startHarness } from './harness.js';

const SCHEDULING = {
  operation: 'region.scheduling' as const,
  input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
  requester: 'U1',
};

describe('release events from the change engine', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  async function engineWithEvents(): Promise<{
    engine: ChangeEngine;
    heard: string[];
    releaseEvents: Events<ReleaseContentChanged>;
  }> {
    h = await startHarness();
    const releaseEvents = new Events<ReleaseContentChanged>();
    const heard: string[] = [];
    releaseEvents.on(async ({ releaseId }) => {
      // What a listener reads is already stored when it is told.
      const changes = await h.store.listChanges({ releaseId });
      heard.push(`${releaseId}: ${changes.map((c) => c.status).join(',')}`);
    });
    const engine = new ChangeEngine({
      client: h.client,
      store: h.store,
      policy: h.policy,
      clock: h.clock,
      logger: silentLogger,
      replicaId: 'replica-a',
      releaseEvents,
    });
    return { engine, heard, releaseEvents };
  }

  it("announces the click that applied a change of a release (its placement is Slack's to announce), without waiting for the listeners", async () => {
    const { engine, heard, releaseEvents } = await engineWithEvents();
    const change = await engine.request({ ...SCHEDULING, origin: { ...origin, releaseId: 'rel-1' } });
    await releaseEvents.settled();
    expect(heard).toEqual([]);
    const outcome = await engine.confirm({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' });
    expect(outcome.kind).toBe('applied');
    await releaseEvents.settled();
    expect(heard).toEqual(['rel-1: succeeded']);
  });

  it('announces a cancel and an expiry; a refused click and a change outside any release announce nothing', async () => {
    const { engine, heard, releaseEvents } = await engineWithEvents();
    const cancelled = await engine.request({ ...SCHEDULING, origin: { ...origin, releaseId: 'rel-1' } });
    const refused = await engine.confirm({ changeId: cancelled.id, user: 'U2', channel: 'C1', team: 'T1' });
    expect(refused.kind).toBe('refused');
    await engine.cancel({ changeId: cancelled.id, user: 'U1', channel: 'C1', team: 'T1' });
    const lapsing = await engine.request({ ...SCHEDULING, origin: { ...origin, releaseId: 'rel-2' } });
    await engine.request({ ...SCHEDULING, origin });
    await releaseEvents.settled();
    expect(heard).toEqual(['rel-1: cancelled']);
    await h.clock.advance(31 * 60_000);
    const expired = await engine.expireDue();
    expect(expired.map((c) => c.id).sort()).toContain(lapsing.id);
    // Housekeeping tells what it moved without waiting for the listeners (issue 39.4): wait for them here.
    await releaseEvents.settled();
    expect(heard).toEqual(['rel-1: cancelled', 'rel-2: expired']);
  });
});
