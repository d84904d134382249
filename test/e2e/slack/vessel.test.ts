/**
 * Vessels end to end: the list, deleting a standalone vessel (dev: the
 * requester's Confirm; prod: an SRE's approval), and the refusal to delete a
 * vessel a formation owns.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { internalImageName } from '../../../src/simulator/index.js';
import { CHANGE_ACTIONS, ROW_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttonIds, buttons, current, shown, waitForThreadReply } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** Creates a standalone vessel straight in the hosting API (as another tool would have), then forgets the request. */
async function standalone(environment: string, name: string): Promise<void> {
  await h.running.core.api.client.createVessel(environment, {
    metadata: { name, environment },
    spec: {
      region: 'eu-central',
      template: {
        spec: {
          containers: [
            {
              name: 'game-server',
              branch: environment,
              image: internalImageName(environment, 'game-server', '1.0.0'),
            },
          ],
        },
      },
    },
  });
  h.sim.clearRequests();
}

const deletes = (env: string) =>
  h.sim.countRequests('DELETE', `/api/formation/v1/environments/${env}/vessels`);
const state = (env: string, name: string) => h.sim.state.getVessel(env, name)?.status?.state;

describe('vessels', () => {
  it('lists every vessel of an environment privately, with state and owning formation', async () => {
    await standalone('dev', 'tourney-1');
    await h.slash('vessels dev');
    const texts = h.ephemeralTexts(ALICE);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatch(/^4 vessels in environment \*dev\*/);
    const answer = shown(h.slack.ephemerals().at(-1));
    expect(answer).toContain(
      '*lobby-1* · region `eu-central` · Running · `game-server:1.1.0` · formation `lobby`',
    );
    expect(answer).toContain('*lobby-2*');
    expect(answer).toMatch(/\*tourney-1\* · region `eu-central` · \w+ · `game-server:1.0.0` · no formation/);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });
});

describe('vessel delete', () => {
  it('deletes a standalone dev vessel on the requester’s Confirm, behind a danger dialog', async () => {
    await standalone('dev', 'tourney-1');
    await h.slash('vessel delete dev tourney-1');
    const preview = h.lastMessage();
    expect(preview.text).toContain('Delete vessel tourney-1 in dev');
    const confirm = buttons(preview).find((b) => b.action_id === CHANGE_ACTIONS.confirm);
    expect(confirm?.confirm?.style).toBe('danger');
    // What the platform does (GameFabric/docs getting-started/terminating-game-servers.md, "Vessels"): no blanket disconnect.
    expect(shown(preview)).toContain(
      'Vessel tourney-1, if allocated, gets a shutdown hint with a deadline (the notice set under Settings → Advanced → Shutdown Notification) and is stopped by then at the latest, with any players still on it; if not allocated, it stops at once.',
    );
    expect(shown(preview)).not.toContain('are disconnected');
    expect(deletes('dev')).toBe(0);

    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(deletes('dev')).toBe(1);
    // The simulator may finish terminating before the click's reply: either way, no longer Running.
    expect(['Terminating', 'gone']).toContain(state('dev', 'tourney-1') ?? 'gone');
    const done = current(h, preview);
    expect(done.text).toMatch(/^Done: Deleted vessel tourney-1/);
    expect(buttonIds(done)).toEqual([ROW_ACTIONS.rollback]);

    await waitForThreadReply(h, preview, /tourney-1 is gone/);
    expect(h.sim.state.getVessel('dev', 'tourney-1')).toBeUndefined();
  });

  it('refuses a vessel a formation owns and points to formation remove', async () => {
    await h.slash('vessel delete dev lobby-1');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    const text = h.ephemeralTexts(ALICE).join('\n');
    expect(text).toContain('belongs to formation lobby');
    expect(text).toContain('formation remove dev lobby lobby-1');
    expect(deletes('dev')).toBe(0);
    expect(state('dev', 'lobby-1')).toBe('Running');
  });

  it('says which vessel is missing when there is none by that name', async () => {
    await h.slash('vessel delete dev nobody-7');
    expect(h.ephemeralTexts(ALICE).join('\n')).toContain('No vessel `nobody-7` in environment `dev`');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('in prod waits for an SRE: the requester cannot confirm, BOB approves and it is deleted', async () => {
    await standalone('prod', 'arena-hotfix');
    await h.slash('vessel delete prod arena-hotfix');
    const preview = h.lastMessage();
    expect(preview.text).toMatch(/^Waiting for approval/);
    expect(buttonIds(preview)).toEqual([
      CHANGE_ACTIONS.approve,
      CHANGE_ACTIONS.reject,
      CHANGE_ACTIONS.cancel,
    ]);
    expect(shown(preview)).toContain('S0SRE');

    await h.click(preview, CHANGE_ACTIONS.approve, ALICE);
    expect(deletes('prod')).toBe(0);
    expect(h.ephemeralTexts(ALICE).at(-1)).toMatch(/approve/i);

    await h.click(preview, CHANGE_ACTIONS.approve, BOB);
    expect(deletes('prod')).toBe(1);
    const done = current(h, preview);
    expect(done.text).toMatch(/^Done: Deleted vessel arena-hotfix/);
    expect(shown(done)).toContain(BOB.id);
    expect(buttonIds(done)).toEqual([ROW_ACTIONS.rollback]);
    await waitForThreadReply(h, preview, /arena-hotfix is gone/);
    expect(h.sim.state.getVessel('prod', 'arena-hotfix')).toBeUndefined();
  });
});
