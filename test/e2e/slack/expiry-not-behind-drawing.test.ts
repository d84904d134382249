/**
 * Issue 39, point 4: expiry waits behind drawing. One housekeeping pass
 * redrew the messages a Slack outage left behind, then recovered, expired and
 * told, each move redrawn before the next step: with Slack's chat.update pace
 * spoken for (live tails, a followed rollout), a prod request past its expiry
 * still read "Waiting for approval" minutes later and its requester was not
 * told. Here the workspace's chat.update gate in the store is booked ten
 * minutes ahead and a finished change's message is left to repair: the
 * request is expired in the store, its requester's notice claimed and her
 * Home tab redrawn at once; the message drawing follows at Slack's pace, the
 * change's own redraw tried before the requester is told.
 */
import { afterEach, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import type { ChangeRecord } from '../../../src/store/types.js';
import { TEST_CHANNEL, TEST_TEAM } from '../../../src/workspace/identity.js';
import { appHomeOpenedBody, postSigned } from '../../../src/workspace/signing.js';
import { ALICE, type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import { buttonIds, current, shown } from './harness-extras.js';

const MINUTE = 60_000;
const clock = new ManualClock(Date.UTC(2026, 2, 1, 9, 0));
let h: BotHarness;
afterEach(async () => {
  // Let held redraws go out so the bot can stop.
  for (let i = 0; i < 30; i++) await clock.advance(MINUTE);
  await h.stop();
});

/** Resolves true once `test` holds, false after `ms` of real time (the failure bound only: the bot's clock is manual). */
function eventually(test: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      Promise.resolve(test()).then((ok) => {
        if (ok) return resolve(true);
        if (Date.now() - started > ms) return resolve(false);
        setTimeout(poll, 20);
      }, reject);
    };
    poll();
  });
}

/** Resolves with the record once `ready` holds for it, or undefined after `ms` of real time (the failure bound only). */
function storeShows(
  id: string,
  ready: (r: ChangeRecord) => boolean,
  ms: number,
): Promise<ChangeRecord | undefined> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      h.running.core.store.getChange(id).then((r) => {
        if (r && ready(r)) return resolve(r);
        if (Date.now() - started > ms) return resolve(undefined);
        setTimeout(poll, 20);
      }, reject);
    };
    poll();
  });
}

it('expires a request and claims its notice while Slack’s chat.update pace is spoken for', async () => {
  // The simulator's time stands still: the removed vessel stays terminating, so the follow-up the
  // domain runs after the click draws no state of its own over the lost rewrite.
  h = await startBotHarness({ clock, simClock: new ManualClock(Date.now()) });
  // A finished change whose final rewrite was lost to a Slack outage: housekeeping has it to repair.
  await h.slash('formation remove dev lobby lobby-2', ALICE);
  const removal = h.lastMessage();
  h.slack.forceOutage('chat.update', 2);
  await h.click(removal, CHANGE_ACTIONS.confirm);
  expect(buttonIds(current(h, removal))).toEqual([CHANGE_ACTIONS.confirm, CHANGE_ACTIONS.cancel]);
  // ALICE asks for a prod promotion: an SRE must approve it within 30 minutes.
  await h.slash('promote game-server:1.2.0 from dev to prod', ALICE);
  const prod = h.lastMessage();
  expect(prod.text).toMatch(/^Waiting for approval/);
  const [waiting] = await h.running.core.store.listChanges({ status: ['awaiting_approval'] });
  if (!waiting) throw new Error('the prod request was not stored');

  await clock.advance(31 * MINUTE);
  // ALICE looks at her Home tab: her request still waits there.
  const opened = await postSigned(h.eventsUrl, SIGNING_SECRET, appHomeOpenedBody(ALICE.id, 'home'), {
    contentType: 'application/json',
  });
  expect(opened.status).toBe(200);
  await h.settle();
  expect(shown(h.slack.homeView(ALICE.id))).toMatch(/waiting for approval: \*Promote game-server:1\.2\.0/);
  // The workspace's chat.update pace is spoken for ten minutes ahead, on every replica.
  await h.running.core.store.holdSlots(`${TEST_TEAM.id}:chat.update`, clock.now() + 10 * MINUTE);
  const pass = h.running.core.housekeepNow();

  const expired = await storeShows(
    waiting.id,
    (r) => r.status === 'expired' && r.expiryToldAt !== undefined,
    5_000,
  );
  expect(expired?.status).toBe('expired');
  expect(expired?.expiryToldAt).toBe(clock.now());
  // Told only once the message's own redraw was tried: not yet, the redraw waits for its slot.
  const notices = () =>
    h.slack
      .thread(TEST_CHANNEL.id, prod.ts)
      .filter((m) => m.ts !== prod.ts && /your request .* expired/.test(m.text ?? ''));
  expect(notices()).toHaveLength(0);
  // Her Home tab (its own views.publish gate) says so meanwhile.
  const homeSays = () => /expired: \*Promote game-server:1\.2\.0/.test(shown(h.slack.homeView(ALICE.id)));
  expect(await eventually(homeSays, 5_000)).toBe(true);

  // Slack's pace frees up: the drawing catches up, nothing is lost.
  for (let i = 0; i < 11; i++) await clock.advance(MINUTE);
  await pass;
  await h.settle();
  expect(shown(current(h, prod))).toMatch(/Expired/);
  expect(notices()).toHaveLength(1);
  // Applied, and past its follow-up's time (the vessel never finished terminating: the simulator's
  // time stood still) when the repair drew it: no Confirm left.
  expect(current(h, removal).text).toMatch(/^Applied, outcome not seen: Removed vessel lobby-2/);
  expect(buttonIds(current(h, removal))).not.toContain(CHANGE_ACTIONS.confirm);
  // The change's message said it expired before its requester was told.
  const calls = h.slack.calls;
  const redrawn = calls.findIndex(
    (c) => c.method === 'chat.update' && c.body.ts === prod.ts && /Expired/.test(JSON.stringify(c.body)),
  );
  const told = calls.findIndex(
    (c) =>
      c.method === 'chat.postMessage' &&
      c.body.thread_ts === prod.ts &&
      /your request .* expired/.test(String(c.body.text)),
  );
  expect(redrawn).toBeGreaterThanOrEqual(0);
  expect(told).toBeGreaterThan(redrawn);
});
