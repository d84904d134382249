/**
 * `gameserver terminate <site> <name>` end to end (docs
 * getting-started/terminating-game-servers.md): a destructive preview that
 * says an allocated match on it ends, a danger confirm, exactly one DELETE
 * on /api/core/v1/sites/{site}/gameservers/{name} however often Confirm is
 * clicked, the policy's verdict like any change, and an unknown server
 * answered with what the Site has.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttons, current, shown } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

const deletes = () => h.sim.countRequests('DELETE', '/api/core/v1/sites/');

describe('gameserver terminate', () => {
  beforeEach(async () => {
    h = await startBotHarness();
  });

  it('previews a destructive change, confirms with a danger dialog, and sends one DELETE however often Confirm is clicked', async () => {
    await h.slash('gameserver terminate fra-bm-1-01 duel-baremetal-0');
    const preview = h.lastMessage();
    expect(preview.text).toContain('Terminate game server duel-baremetal-0 on site fra-bm-1-01');
    expect(shown(preview)).toContain(
      'If game server duel-baremetal-0 is allocated, the match on it ends and its players are disconnected.',
    );
    const confirm = buttons(preview).find((b) => b.action_id === CHANGE_ACTIONS.confirm);
    expect(confirm?.confirm?.style).toBe('danger');
    await Promise.all([h.click(preview, CHANGE_ACTIONS.confirm), h.click(preview, CHANGE_ACTIONS.confirm)]);
    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(deletes()).toBe(1);
    expect(current(h, preview).text).toMatch(
      /^Done: Terminated game server duel-baremetal-0 on site fra-bm-1-01/,
    );
    // The allocated match on it ended.
    expect(h.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({ allocatedReplicas: 0 });
  });

  it('answers a game server the Site does not have with what it has, before any preview', async () => {
    await h.slash('gameserver terminate fra-bm-1-01 duel-baremetal-9');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'Site fra-bm-1-01 has no game server duel-baremetal-9 (it has duel-baremetal-0, duel-baremetal-1, duel-baremetal-2); nothing to terminate.',
    );
    expect(deletes()).toBe(0);
  });

  it('answers a missing argument with the form', async () => {
    await h.slash('gameserver terminate fra-bm-1-01');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('gameserver terminate &lt;site&gt; &lt;game-server&gt;');
  });
});

describe('gameserver terminate under a policy', () => {
  it('is refused like any change when no rule allows it', async () => {
    h = await startBotHarness({
      policy: `
version: 1
rules:
  - name: reads
    operations: [armadas.list]
`,
    });
    await h.slash('gameserver terminate fra-bm-1-01 duel-baremetal-0');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'terminate game server duel-baremetal-0 on site fra-bm-1-01',
    );
    expect(deletes()).toBe(0);
  });
});
