/**
 * The gallery's guarded rollouts (issue 42): the preview's guard line, a
 * clean window ("Guard passed"), a build that crashes on start rolled back
 * automatically (the message, the thread naming the people, the trigger),
 * a target someone else moved (nothing written, people told), and the
 * rollout forms' Guard field.
 */

import { internalImageName } from '../../../../src/simulator/index.js';
import { CHANGE_ACTIONS } from '../../../../src/slack/ids.js';
import { GUARD_BLOCK } from '../../../../src/slack/modals/control-fields.js';
import { CRASHING_IMAGE, simSend } from '../../../watches/sim-control.js';
import type { Scenario, ScenarioDriver } from './scenario.js';

const GUARD_POLICY = `
version: 1
rules:
  - name: dev-rollouts
    operations: [armada.image, armadaset.image]
    target: { environment: dev }
    approval: { mode: confirm }
    guard: { within: 15m, optional: true }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

const DUEL = '/api/armada/v1/environments/dev/armadas/duel';

/** Duel replaces every unallocated server at once, and game-server:1.0.0 crashes on start. */
function crashingBuild(d: ScenarioDriver): Promise<void> {
  return d.setup('dev armada duel set to Recreate; game-server:1.0.0 crashes on start', async () => {
    await simSend(
      d.h.sim,
      'PATCH',
      DUEL,
      { spec: { template: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } } } },
      'application/merge-patch+json',
    );
    d.h.sim.setCrashingImage('dev', CRASHING_IMAGE, 'exit code 1');
  });
}

export const GUARD_SCENARIOS: Scenario[] = [
  {
    title: 'Guarded rollout: the preview says so, and a clean window ends with "Guard passed"',
    policy: GUARD_POLICY,
    run: async (d) => {
      await d.slash('armada image dev duel game-server:1.1.0');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.followUps();
      await d.housekeepFor(16 * 60_000);
    },
  },
  {
    title:
      'Guarded rollout: a build that crashes on start is rolled back automatically, naming why and who; the open alert links to it',
    policy: GUARD_POLICY,
    serverStates: true,
    run: async (d) => {
      await d.slash('watch dev');
      await crashingBuild(d);
      await d.slash('armada image dev duel game-server:1.0.0 --guard 20m');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.followUps();
      await d.watchFor(2 * 60_000);
      await d.housekeepFor(3 * 60_000);
    },
  },
  {
    title:
      'Guarded rollout: the target moved since the change, so the guard writes nothing and names the people',
    policy: GUARD_POLICY,
    run: async (d) => {
      await crashingBuild(d);
      await d.slash('armada image dev duel game-server:1.0.0');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.followUps();
      await d.outside(
        'someone rolls duel on to game-server:1.1.0 in the console, which crashes too',
        async () => {
          const other = internalImageName('dev', 'game-server', '1.1.0');
          d.h.sim.setCrashingImage('dev', other, 'exit code 2');
          await simSend(
            d.h.sim,
            'PATCH',
            DUEL,
            [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: other }],
            'application/json-patch+json',
          );
        },
      );
      await d.housekeepFor(3 * 60_000);
    },
  },
  {
    title:
      'Guarded rollout: `--no-guard` where the rule allows it; `--guard` where no rule sets one is refused',
    policy: GUARD_POLICY,
    run: async (d) => {
      await d.slash('armada image dev duel game-server:1.1.0 --no-guard');
      await d.slash('armada image prod duel game-server:1.0.0 --guard 15m');
    },
  },
  {
    title:
      'Guarded rollout form: Guard asks for a longer window; a window where no rule sets a guard comes back beside the field; a value that is no window is refused there',
    policy: GUARD_POLICY,
    run: async (d) => {
      await d.slash('armada image dev duel');
      await d.submit({ image: 'game-server:1.1.0', [GUARD_BLOCK]: '30m' });
      await d.slash('armada image prod duel');
      await d.submit({ image: 'game-server:1.0.0', [GUARD_BLOCK]: '15 parsecs' });
      await d.submit({ image: 'game-server:1.0.0', [GUARD_BLOCK]: '15m' });
    },
  },
];
