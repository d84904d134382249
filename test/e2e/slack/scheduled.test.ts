/**
 * Scheduled changes through the whole bot (issue 41), over loopback: signed
 * `/harbor` requests to a real Bolt receiver, the simulator over HTTP, the
 * Slack stand-in and the store (SQLite, and PostgreSQL when
 * HARBOR_TEST_DATABASE_URL is set). `--at` posts a preview that says when
 * it applies; Confirm leaves it Scheduled with Cancel and writes nothing;
 * at its time the scheduler applies it and the message says Done, the
 * thread telling the requester and its approver; `/harbor scheduled` lists
 * what waits, and Cancel there stops it; a bad time is refused with the forms.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/runtime/clock.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { storeKinds } from '../../changes/harness.js';
import { ALICE, BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { pgStore } from './pg-schema.js';

const POLICY = `
version: 1
rules:
  - name: dev-approved
    operations: ['formation.*']
    target: { environment: dev }
    approval: { required: 1, approvers: { users: [${BOB.id}] } }
    expires: 6h
  - name: everything
    operations: ['*']
    approval: { mode: confirm }
`;

const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);
const HOUR = 3_600_000;

describe.each(storeKinds)('scheduled changes over Slack (%s store)', (kind) => {
  let h: BotHarness;
  let cleanup: () => Promise<void> = async () => {};
  afterEach(async () => {
    await h.stop();
    await cleanup();
  });

  async function start(clock: ManualClock): Promise<void> {
    if (kind === 'sqlite') {
      h = await startBotHarness({ clock, policy: POLICY });
      return;
    }
    const db = await pgStore();
    h = await startBotHarness({ clock, policy: POLICY, databaseUrl: db.url });
    cleanup = db.drop;
  }

  const message = (ts: string) => h.slack.channelMessages(TEST_CHANNEL.id).find((m) => m.ts === ts);
  const lobby = () => h.sim.state.getFormation('dev', 'lobby')?.spec.vessels.map((v) => v.name);
  const at = (ms: number) => `<!date^${Math.floor(ms / 1000)}^`;

  it('previews with its time, is approved ahead, applies at its time and tells the requester and approver', async () => {
    const clock = new ManualClock(T0);
    await start(clock);
    await h.slash('formation remove dev lobby lobby-2 --at in 2h');
    const preview = h.lastMessage();
    expect(preview.text).toContain('(scheduled)');
    const drawn = JSON.stringify(preview.blocks);
    expect(drawn).toContain(`*Scheduled:* applies ${at(T0 + 2 * HOUR)}`);
    expect(drawn).not.toContain('Approvals expire at');
    await h.click(preview, CHANGE_ACTIONS.approve, BOB);
    const waiting = message(preview.ts);
    expect(waiting?.text).toContain('Scheduled:');
    expect(JSON.stringify(waiting?.blocks)).toContain(CHANGE_ACTIONS.cancel);
    expect(JSON.stringify(waiting?.blocks)).not.toContain(CHANGE_ACTIONS.approve);
    expect(h.ephemeralTexts(BOB).at(-1)).toContain(`Scheduled: it applies ${at(T0 + 2 * HOUR)}`);
    // Nothing is written before its time.
    await clock.advance(2 * HOUR - 1000);
    await h.running.core.housekeepNow();
    expect(lobby()).toEqual(['lobby-1', 'lobby-2']);

    await h.slash('scheduled dev');
    expect(h.ephemeralTexts().at(-1)).toBe('1 scheduled change in dev');

    await clock.advance(1000);
    await h.running.core.housekeepNow();
    await h.settle();
    expect(lobby()).toEqual(['lobby-1']);
    const done = message(preview.ts);
    expect(done?.text).toMatch(/^Done/);
    expect(JSON.stringify(done?.blocks)).toContain(`scheduled for ${at(T0 + 2 * HOUR)}`);
    const thread = h.slack.thread(TEST_CHANNEL.id, preview.ts).map((m) => m.text);
    expect(
      thread.some((t) =>
        t.includes(`<@${ALICE.id}>, your scheduled change is done (approved by <@${BOB.id}>)`),
      ),
    ).toBe(true);
  });

  it('Confirm now, then Cancel from the scheduled list; a bad time is refused with the forms', async () => {
    const clock = new ManualClock(T0);
    await start(clock);
    await h.slash('vessel delete dev lobby-3 --at 2026-11-28T10:00Z');
    expect(h.ephemeralTexts().at(-1)).toContain('is in the past');
    expect(h.ephemeralTexts().at(-1)).toContain('18:00 Europe/Berlin');

    await h.slash('armada scale dev duel --type cloud --min 3 --at 18:00 Europe/Berlin');
    const preview = h.lastMessage();
    // 12:00 UTC is 13:00 in Berlin: 18:00 there is today, 17:00 UTC.
    expect(JSON.stringify(preview.blocks)).toContain(at(Date.UTC(2026, 10, 28, 17, 0)));
    await h.click(preview, CHANGE_ACTIONS.confirm, ALICE);
    expect(message(preview.ts)?.text).toContain('Scheduled:');

    await h.slash('scheduled');
    const list = h.slack.ephemerals().at(-1);
    expect(list?.text).toBe('1 scheduled change');
    const cancel = await h.click(
      { ...(list as NonNullable<typeof list>), ts: preview.ts } as never,
      CHANGE_ACTIONS.cancel,
      ALICE,
    );
    expect(cancel.status).toBe(200);
    expect(message(preview.ts)?.text).toMatch(/^Cancelled/);
    await clock.advance(6 * HOUR);
    await h.running.core.housekeepNow();
    await h.slash('scheduled');
    expect(h.ephemeralTexts().at(-1)).toBe('Nothing is scheduled.');
  });
});
