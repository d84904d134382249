/**
 * The gallery's rollback previews corrected by issue 38: each says what the
 * forward preview of the same values says (a drain to max 0, a Recreate fleet,
 * a dynamic buffer, an ImageUpdater that may roll it forward again), a
 * promotion's rollback sets its Formation back and names the Vessel it cannot,
 * and a rollback whose image is gone from its branch is refused, naming both.
 */

import type { ImageUpdater } from '../../../../src/api-shapes/armada-resources.js';
import type { demoData } from '../../../../src/simulator/demo-data.js';
import { internalImageName } from '../../../../src/simulator/image-names.js';
import { CHANGE_ACTIONS, ROW_ACTIONS } from '../../../../src/slack/ids.js';
import { BOB } from '../bot-harness.js';
import type { Scenario, ScenarioDriver } from './scenario.js';

type World = ReturnType<typeof demoData>;

/** A change typed and confirmed (or approved by Bob, in prod), its follow-up waited for. */
async function applied(d: ScenarioDriver, command: string, approve = false): Promise<void> {
  await d.slash(command);
  await (approve ? d.click(CHANGE_ACTIONS.approve, BOB) : d.click(CHANGE_ACTIONS.confirm));
  await d.followUps();
}

/** Merge-patches armada `duel` in dev through the API, as the console would. */
async function patchDuel(d: ScenarioDriver, spec: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${d.h.sim.url}/api/armada/v1/environments/dev/armadas/duel`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${d.h.sim.token}`, 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ spec }),
  });
  if (res.status !== 200) throw new Error(`the simulator answered ${res.status}`);
}

const updater = (env: string, name: string, kind: string, target: string): ImageUpdater => ({
  apiVersion: 'container/v1',
  kind: 'ImageUpdater',
  metadata: { name, environment: env },
  spec: {
    branch: env,
    imageName: 'game-server',
    targetRef: { apiVersion: kind.startsWith('Armada') ? 'armada/v1' : 'formation/v1', kind, name: target },
  },
});

/** prod with ImageUpdaters for Formation arena and a standalone Vessel solo-1 too (beside the demo's ArmadaSet arena). */
function formationAndVessel(data: World): void {
  const prod = data.environments.prod;
  const template = prod?.formations?.[0]?.spec.template;
  if (!prod || !template) throw new Error('the demo prod environment has no formation template');
  prod.vessels = [
    {
      apiVersion: 'formation/v1',
      kind: 'Vessel',
      metadata: { name: 'solo-1', environment: 'prod' },
      spec: { region: 'eu-central', template: structuredClone(template) },
    },
  ];
  prod.imageUpdaters = [
    ...(prod.imageUpdaters ?? []),
    updater('prod', 'arena-formation', 'Formation', 'arena'),
    updater('prod', 'solo-game-server', 'Vessel', 'solo-1'),
  ];
}

export const ROLLBACK_PREVIEW_SCENARIOS: Scenario[] = [
  {
    title:
      'Roll back a scale up from max 0: the drain its forward scale is (allocated game servers keep running), not destructive',
    run: async (d) => {
      await d.setup(
        'alice drains armada `duel`’s cloud type (0, 0, 0), then scales it up to buffer 2, max 20',
        async () => {
          await applied(d, 'armada scale dev duel --type cloud --min 0 --buffer 0 --max 0');
          await applied(d, 'armada scale dev duel --type cloud --buffer 2 --max 20');
        },
      );
      await d.click(ROW_ACTIONS.rollback);
    },
  },
  {
    title:
      'Roll back an image change on a Recreate fleet: its strategy, every unallocated game server at once',
    run: async (d) => {
      await d.setup(
        'armada `duel` uses the Recreate strategy; alice rolls it out to game-server:1.1.0',
        async () => {
          await patchDuel(d, { template: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } } });
          await applied(d, 'armada image dev duel game-server:1.1.0');
        },
      );
      await d.click(ROW_ACTIONS.rollback);
    },
  },
  {
    title: 'Roll back a scale under a dynamic buffer: the buffer it restores is overridden by the platform',
    run: async (d) => {
      await d.setup(
        'armada `duel`’s cloud type has a dynamic buffer; alice sets its buffer to 3',
        async () => {
          await patchDuel(d, {
            distribution: [
              { name: 'baremetal', minReplicas: 2, maxReplicas: 10, bufferSize: 2 },
              {
                name: 'cloud',
                minReplicas: 0,
                maxReplicas: 20,
                bufferSize: 2,
                dynamicBuffer: { maxBufferUtilization: 80 },
              },
            ],
          });
          await applied(d, 'armada scale dev duel --type cloud --buffer 3');
        },
      );
      await d.click(ROW_ACTIONS.rollback);
    },
  },
  {
    title:
      'Roll back an image change on a fleet an ImageUpdater targets: it may roll the fleet forward again',
    world: (data) => {
      const dev = data.environments.dev;
      if (dev) dev.imageUpdaters = [updater('dev', 'duel-follows-dev', 'Armada', 'duel')];
    },
    run: async (d) => {
      await d.setup(
        'ImageUpdater `duel-follows-dev` targets armada `duel`; alice rolls it out to game-server:1.1.0',
        () => applied(d, 'armada image dev duel game-server:1.1.0'),
      );
      await d.click(ROW_ACTIONS.rollback);
    },
  },
  {
    title:
      'Roll back a promotion whose ImageUpdaters target a Formation and a Vessel: the Formation is set back, the Vessel named',
    world: formationAndVessel,
    run: async (d) => {
      await d.setup(
        'ImageUpdaters in prod target ArmadaSet `arena`, formation `arena` and vessel `solo-1`; alice promotes game-server:1.2.0 into prod, and bob approves it',
        () => applied(d, 'promote game-server:1.2.0 from dev to prod', true),
      );
      await d.click(ROW_ACTIONS.rollback);
      await d.click(CHANGE_ACTIONS.approve, BOB);
      await d.followUps();
    },
  },
  {
    title:
      'Roll back refused: the image it would set back is gone from its branch (retention), named with the branch',
    run: async (d) => {
      await d.setup(
        'alice rolls armada `duel` out to game-server:1.0.0, then to game-server:1.1.0',
        async () => {
          await applied(d, 'armada image dev duel game-server:1.0.0');
          await applied(d, 'armada image dev duel game-server:1.1.0');
        },
      );
      await d.outside(
        'the dev branch’s image retention policy deletes game-server:1.0.0, which nothing runs now',
        async () => {
          d.h.sim.deleteImage('dev', internalImageName('dev', 'game-server', '1.0.0'));
        },
      );
      await d.click(ROW_ACTIONS.rollback);
    },
  },
];
