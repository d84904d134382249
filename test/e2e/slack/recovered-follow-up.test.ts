/**
 * A change whose apply a dead replica left behind is settled by housekeeping
 * (recovery reads the API, never writes again). When the read shows the
 * write landed, the change is followed up in its thread as a clicked one is:
 * whoever confirmed a scale learns whether the fleet got there, even though
 * the replica that sent the write is gone. When the read does not show it,
 * nothing is followed: there is nothing to follow yet.
 */
import { afterEach, beforeEach, expect, it } from '@jest/globals';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { current, shown, waitForThreadReply } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const SCALE = 'armada scale dev duel --type cloud --min 2 --max 30';
const BEFORE = { minReplicas: 0, bufferSize: 2, maxReplicas: 20 };
const AFTER = { minReplicas: 2, bufferSize: 2, maxReplicas: 30 };

/** Leaves the previewed change as a replica that died mid-apply does: claimed, its lease lapsed. */
async function dieMidApply(): Promise<string> {
  const { store } = h.running.core;
  const [change] = await store.listChanges({ status: ['pending'], limit: 1 });
  if (!change) throw new Error('no pending change');
  const now = Date.now();
  await store.transitionChange(
    change.id,
    ['pending'],
    'applying',
    { confirmedBy: ALICE.id, applyingOwner: 'dead-replica', applyingSince: now },
    { now },
  );
  return change.id;
}

/** Thread replies under `parent`, as posted. */
const threadTexts = (ts: string) =>
  h.slack
    .callsTo('chat.postMessage')
    .filter((c) => c.body.thread_ts === ts)
    .map((c) => String(c.body.text ?? ''));

it("the dead replica's write landed: recovery marks it done and follows the scale in the thread", async () => {
  await h.slash(SCALE);
  const preview = h.lastMessage();
  const id = await dieMidApply();
  // The write the dead replica sent, as the API received it.
  await h.running.core.api.client.setDistribution(
    { kind: 'Armada', env: 'dev', name: 'duel', type: 'cloud' },
    BEFORE,
    AFTER,
  );

  await h.running.core.housekeepNow();
  expect((await h.running.core.store.getChange(id))?.status).toBe('succeeded');
  expect(shown(current(h, preview))).toMatch(/^Done/);
  await waitForThreadReply(h, preview, /Armada duel scaled: Synced/);
  // One write: the one the dead replica sent.
  expect(h.sim.countRequests('PATCH', '/api/armada/v1/environments/dev/armadas')).toBe(1);
});

it('the write never landed: outcome unknown, and no follow-up of a change that is not there', async () => {
  await h.slash(SCALE);
  const preview = h.lastMessage();
  const id = await dieMidApply();

  await h.running.core.housekeepNow();
  await h.settle();
  const change = await h.running.core.store.getChange(id);
  expect(change?.status).toBe('applying');
  expect(threadTexts(preview.ts).filter((t) => /scaled/.test(t))).toEqual([]);
  expect(h.sim.countRequests('PATCH', '/api/armada/v1/environments/dev/armadas')).toBe(0);
});
