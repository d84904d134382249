/**
 * Gallery scenarios of scheduled changes (issue 41): the preview with its
 * time, Scheduled with Cancel, the list, the apply at its time told to the
 * requester and approver, a late apply within the grace, a missed one, the
 * approvals that expire first, and a time it cannot read.
 */
import { CHANGE_ACTIONS } from '../../../../src/slack/ids.js';
import { ALICE, BOB } from '../bot-harness.js';
import type { Scenario } from './scenario.js';

/** Bob approves dev formation changes (for 6 h, or 30 min in the second policy); everything else is confirmed. */
const policy = (expires: string) => `
version: 1
rules:
  - name: dev-formations
    operations: ['formation.*']
    target: { environment: dev }
    approval: { required: 1, approvers: { users: [${BOB.id}] } }
    expires: ${expires}
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

/** Every change confirmed by its requester; anyone may freeze. */
const CONFIRM = `
version: 1
rules:
  - name: everything
    operations: ['*']
    approval: { mode: confirm }
`;

export const SCHEDULE_SCENARIOS: Scenario[] = [
  {
    title: 'Schedule a change: the preview says when, Confirm now, Scheduled with Cancel, the list, Cancel',
    run: async (d) => {
      await d.slash('vessel delete dev duel-1 --at in 2h');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.slash('scheduled');
      await d.clickEphemeral(CHANGE_ACTIONS.cancel, ALICE);
      await d.slash('scheduled dev');
    },
  },
  {
    title: 'A scheduled change approved ahead applies at its time; the requester and approver are told',
    policy: policy('6h'),
    run: async (d) => {
      await d.slash('formation remove dev lobby lobby-2 --at in 1h');
      await d.click(CHANGE_ACTIONS.approve, BOB);
      await d.minutesPass(60);
    },
  },
  {
    title: 'A scheduled change applied late (no replica ran at its time), within the grace',
    run: async (d) => {
      await d.slash('vessel delete dev duel-1 --at in 1h');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.minutesPass(65);
    },
  },
  {
    title: 'A scheduled change missed: no replica ran within the grace; the requester is told',
    run: async (d) => {
      await d.slash('vessel delete dev duel-1 --at in 1h');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.minutesPass(120);
      // The expiry notice is claimed by the lifecycle's pass after the scheduler marked it missed.
      await d.minutesPass(1);
    },
  },
  {
    title: 'Approvals expire before a scheduled change’s time: the preview warns',
    policy: policy('30m'),
    run: (d) => d.slash('formation remove dev lobby lobby-2 --at in 2h'),
  },
  {
    title: 'Scheduled into a freeze put later: refused at its time, naming the freeze',
    policy: CONFIRM,
    run: async (d) => {
      await d.slash('formation remove dev lobby lobby-2 --at in 1h');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.slash('freeze dev for 3h tournament final', BOB);
      await d.minutesPass(60);
    },
  },
  {
    title: 'Schedule: a time it cannot read',
    run: (d) => d.slash('vessel delete dev lobby-3 --at tomorrow'),
  },
  {
    title: 'Schedule: a time in the past',
    run: (d) => d.slash('vessel delete dev lobby-3 --at 2020-01-01T00:00Z'),
  },
];
