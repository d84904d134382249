/**
 * The gallery's rollback scenarios (issue 28): every message a rollback
 * draws, of one change and of a release: the preview (before → after), its
 * approval, the result and the original redrawn, and each refusal (the target
 * moved, already rolled back, past the window, not offered).
 */

import { CHANGE_ACTIONS, RELEASE_ROLLBACK_ACTION, ROW_ACTIONS } from '../../../../src/slack/ids.js';
import type { ChangeRecord } from '../../../../src/store/types.js';
import { ALICE, BOB, type BotHarness } from '../bot-harness.js';
import type { Scenario, ScenarioDriver } from './scenario.js';

/** The changes the bot stored, oldest first. */
async function changes(h: BotHarness): Promise<ChangeRecord[]> {
  return [...(await h.running.core.store.listChanges({}))].sort((a, b) => a.createdAt - b.createdAt);
}

async function newestId(h: BotHarness): Promise<string> {
  return (await changes(h)).at(-1)?.id ?? '';
}

/** Sets the max replicas of armada duel's cloud entry in dev through the API, as the console would. */
function cloudMaxOutside(d: ScenarioDriver, max: number): Promise<void> {
  return d.outside(
    `someone sets armada \`duel\`'s cloud max to ${max} in the GameFabric console`,
    async () => {
      const res = await fetch(`${d.h.sim.url}/api/armada/v1/environments/dev/armadas/duel`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${d.h.sim.token}`, 'content-type': 'application/json-patch+json' },
        // Entry 1 of duel's distribution is the cloud region type.
        body: JSON.stringify([{ op: 'replace', path: '/spec/distribution/1/maxReplicas', value: max }]),
      });
      if (res.status !== 200) throw new Error(`the simulator answered ${res.status}`);
    },
  );
}

/** A change typed and confirmed (or approved by Bob, in prod), its follow-up waited for. */
async function applied(d: ScenarioDriver, command: string, approve = false): Promise<void> {
  await d.slash(command);
  await (approve ? d.click(CHANGE_ACTIONS.approve, BOB) : d.click(CHANGE_ACTIONS.confirm));
  await d.followUps();
}

export const ROLLBACK_SCENARIOS: Scenario[] = [
  {
    title:
      'Roll back a change: preview (which change, who made it, before → after), Confirm, the original says by which change',
    run: async (d) => {
      await applied(d, 'armada scale dev duel --type cloud --max 30');
      const original = await newestId(d.h);
      await d.click(ROW_ACTIONS.rollback);
      await d.click(CHANGE_ACTIONS.confirm);
      await d.followUps();
      const rollback = await newestId(d.h);
      await d.slash(`rollback ${original}`);
      await d.slash(`rollback ${rollback}`);
    },
  },
  {
    title:
      'Roll back a formation add: destructive, saying what an allocated vessel gets (a shutdown hint and a deadline), not that players are disconnected',
    run: async (d) => {
      await d.setup('alice adds vessel `lobby-7` to formation `lobby` in dev', () =>
        applied(d, 'formation add dev lobby lobby-7 eu-central'),
      );
      await d.click(ROW_ACTIONS.rollback);
    },
  },
  {
    title: 'Scale while the platform writes the status: sent again on the new revision, and said so',
    run: async (d) => {
      await d.outside(
        "the platform writes armada `duel`'s status between Harbormaster's read and its patch",
        async () => {
          d.h.sim.setFaults([
            {
              method: 'PATCH',
              path: '/api/armada/v1/environments/dev/armadas/duel',
              writeStatusFirst: true,
              times: 1,
            },
          ]);
        },
      );
      await applied(d, 'armada scale dev duel --type cloud --max 30');
    },
  },
  {
    title: 'Roll back a change in prod: the rollback waits for an approval too',
    run: async (d) => {
      await d.setup('alice changes scheduling in prod, and bob approves it', () =>
        applied(d, 'region scheduling prod eu-central baremetal Distributed', true),
      );
      await d.click(ROW_ACTIONS.rollback);
      await d.click(CHANGE_ACTIONS.approve, BOB);
      await d.followUps();
    },
  },
  {
    title: 'Roll back a change whose target changed since: refused, naming what changed and who',
    run: async (d) => {
      let first = '';
      await d.setup('alice scales armada `duel` to cloud max 30, then to 40', async () => {
        await applied(d, 'armada scale dev duel --type cloud --max 30');
        first = await newestId(d.h);
        await applied(d, 'armada scale dev duel --type cloud --max 40');
      });
      await d.slash(`rollback ${first}`);
      await cloudMaxOutside(d, 25);
      await d.click(ROW_ACTIONS.rollback);
    },
  },
  {
    title: 'Roll back after HARBOR_ROLLBACK_DAYS: the button says until when it was offered',
    run: async (d) => {
      await d.setup('alice scales armada `duel` to cloud max 30', () =>
        applied(d, 'armada scale dev duel --type cloud --max 30'),
      );
      d.daysPass(8);
      await d.click(ROW_ACTIONS.rollback);
    },
  },
  {
    title: 'Roll back is not offered for a terminated game server',
    run: async (d) => {
      await d.setup('alice terminates game server `duel-baremetal-0`', () =>
        applied(d, 'gameserver terminate fra-bm-1-01 duel-baremetal-0'),
      );
      await d.slash(`rollback ${await newestId(d.h)}`);
    },
  },
  {
    title:
      'Roll back an image promotion: the fleets it set back, and the ImageUpdater that rolls forward again',
    run: async (d) => {
      await d.setup('alice promotes `game-server:1.2.0` into prod, and bob approves it', () =>
        applied(d, 'promote game-server:1.2.0 from dev to prod', true),
      );
      await d.click(ROW_ACTIONS.rollback);
      await d.click(CHANGE_ACTIONS.approve, BOB);
      await d.followUps();
    },
  },
  {
    title:
      'Roll back a release: one preview newest first in its thread, Confirm, a refusal in the middle stops the rest',
    run: async (d) => {
      await d.setup(
        'alice starts release Season 9 and scales armada `duel` (baremetal max 12, cloud max 30) and ArmadaSet `arena` in it; she rolls back the ArmadaSet scale alone',
        async () => {
          await d.slash('release start Season 9');
          await applied(d, 'armada scale dev duel --type baremetal --max 12');
          await applied(d, 'armada scale dev duel --type cloud --max 30');
          await applied(d, 'armadaset scale dev arena --region eu-central --type baremetal --max 14');
          await d.click(ROW_ACTIONS.rollback);
          await d.click(CHANGE_ACTIONS.confirm);
        },
      );
      await applied(d, 'region scheduling dev eu-central baremetal Distributed');
      await cloudMaxOutside(d, 25);
      await d.click(RELEASE_ROLLBACK_ACTION);
      await d.click(CHANGE_ACTIONS.confirm);
      await d.followUps();
    },
  },
  {
    title: 'Roll back a release in prod: one approval, asked once, for every change',
    run: async (d) => {
      await d.setup(
        'alice starts release Season 10 and changes scheduling and scales ArmadaSet `arena` in prod in it; bob approves both',
        async () => {
          await d.slash('release start Season 10');
          await applied(d, 'region scheduling prod eu-central baremetal Distributed', true);
          await applied(d, 'armadaset scale prod arena --region eu-central --type baremetal --max 14', true);
        },
      );
      await d.click(RELEASE_ROLLBACK_ACTION, ALICE);
      await d.click(CHANGE_ACTIONS.approve, BOB);
      await d.followUps();
    },
  },
];
