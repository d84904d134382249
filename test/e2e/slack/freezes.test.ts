/**
 * Freezes through the whole bot (issue 41), over loopback: signed `/harbor`
 * requests to a real Bolt receiver, the simulator over HTTP, the Slack
 * stand-in, and the store (SQLite, and PostgreSQL when
 * HARBOR_TEST_DATABASE_URL is set). A freeze is answered with who, why and
 * until when (a date token); a change command during it gets no preview,
 * only the refusal; `--break-glass` posts a preview that says it breaks the
 * freeze and waits for the break-glass approver (not the requester); the
 * freezes list shows it; unfreeze ends it.
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
break_glass:
  required: 1
  approvers: { users: [${BOB.id}] }
rules:
  - name: everything
    operations: ['*']
    approval: { mode: confirm }
`;

const T0 = Date.UTC(2026, 2, 28, 12, 0, 0);

describe.each(storeKinds)('freezes over Slack (%s store)', (kind) => {
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

  const channel = () => h.slack.channelMessages(TEST_CHANNEL.id);
  const lobby = () => h.sim.state.getFormation('dev', 'lobby')?.spec.vessels.map((v) => v.name);

  it('freeze, a refused change with no preview, break glass approved by its approver, the list, unfreeze', async () => {
    const clock = new ManualClock(T0);
    await start(clock);
    await h.slash('freeze dev for 2h tournament final', BOB);
    expect(h.ephemeralTexts(BOB).at(-1)).toBe('dev is frozen');
    const answer = JSON.stringify(h.slack.ephemerals().at(-1)?.blocks);
    expect(answer).toContain('<@U0BOB> froze `dev` until <!date^');
    expect(answer).toContain(String(Math.floor((T0 + 2 * 3_600_000) / 1000)));

    const before = channel().length;
    await h.slash('formation remove dev lobby lobby-2');
    // No preview: nothing new in the channel, the refusal names who, why and until when.
    expect(channel()).toHaveLength(before);
    const refusal = h.ephemeralTexts().at(-1) ?? '';
    expect(refusal).toContain('Environment dev was frozen by <@U0BOB> <!date^');
    expect(refusal).toContain('Reason: tournament final.');
    expect(refusal).toContain('--break-glass &lt;reason&gt;');
    // Reads still work during the freeze.
    await h.slash('vessels dev');
    expect(h.ephemeralTexts().at(-1)).not.toContain('frozen');

    await h.slash('formation remove dev lobby lobby-2 --break-glass "lobby-2 crashes every match"');
    const preview = h.lastMessage();
    expect(preview.text).toContain('(breaks a freeze)');
    expect(JSON.stringify(preview.blocks)).toContain('Breaks a freeze.');
    expect(JSON.stringify(preview.blocks)).toContain('lobby-2 crashes every match');
    await h.click(preview, CHANGE_ACTIONS.approve, ALICE);
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('breaks a freeze: someone else must approve it');
    expect(lobby()).toEqual(['lobby-1', 'lobby-2']);
    await h.click(preview, CHANGE_ACTIONS.approve, BOB);
    expect(lobby()).toEqual(['lobby-1']);
    const done = channel().find((m) => m.ts === preview.ts);
    expect(JSON.stringify(done?.blocks)).toContain('Breaks a freeze.');

    await h.slash('freezes');
    expect(h.ephemeralTexts().at(-1)).toBe('Frozen: dev');
    await h.slash('unfreeze dev', BOB);
    expect(h.ephemeralTexts(BOB).at(-1)).toBe('dev is no longer frozen');
    await h.slash('formation remove dev lobby lobby-1');
    expect(h.lastMessage().text).not.toContain('breaks a freeze');
    expect(h.lastMessage().ts).not.toBe(preview.ts);
  });
});
