/**
 * The gallery's scenarios: every kind of message and modal the bot draws,
 * reached the way an on-call engineer reaches it, over the demo data.
 * Add a scenario here when you add a surface; `npm run gallery` rewrites the
 * gallery document.
 */
import { internalImageName } from '../../../../src/simulator/image-names.js';
import {
  ALERT_ACTIONS,
  CHANGE_ACTIONS,
  RELEASE_ACTIONS,
  RELEASE_END_ACTION,
  SHARE_ACTION,
} from '../../../../src/slack/ids.js';
import { crashDuel, simSend } from '../../../watches/sim-control.js';
import { ALICE, BOB, CAROL } from '../bot-harness.js';
import { GUARD_SCENARIOS } from './guard-scenarios.js';
import { ROLLBACK_PREVIEW_SCENARIOS } from './rollback-preview-scenarios.js';
import { ROLLBACK_SCENARIOS } from './rollback-scenarios.js';
import type { Scenario } from './scenario.js';
import { SCHEDULE_SCENARIOS } from './schedule-scenarios.js';

/** A policy where only the SRE group may delete in prod, to show a denial. */
const DENYING_POLICY = `
version: 1
rules:
  - name: prod-deletes
    operations: [vessel.delete, formation.remove]
    target: { environment: prod }
    requesters: { groups: [S0SRE] }
    approval: { required: 1, approvers: { groups: [S0SRE] } }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

/**
 * Freezes (issue 41): Bob may break glass; the weekend window is the policy's own. Alice requests,
 * so Bob's approval is another person's, as break glass requires.
 */
const FREEZE_POLICY = `
version: 1
freezes:
  - name: weekend
    # No demo environment matches, so the window is always "coming up" and never in force,
    # whatever the day the gallery runs on (its times are date tokens, normalized).
    environments: ['tournament-*']
    days: [sat, sun]
    from: "16:00"
    to: "09:00"
    timezone: Europe/Berlin
    reason: weekend tournaments
break_glass:
  required: 1
  approvers: { users: [${BOB.id}] }
rules:
  - name: everything
    operations: ['*']
    approval: { mode: confirm }
`;

/** Two approvals from the SREs (Bob and Carol): a request by one of them can never gather two. */
const TWO_SRE_POLICY = `
version: 1
rules:
  - name: prod-removals
    operations: [formation.remove]
    target: { environment: prod }
    approval: { required: 2, approvers: { groups: [S0SRE] } }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

/** Text a user types that mrkdwn would turn italic or bold if it were not shown as code. */
export const USER_MRKDWN = '_de_dust_ *fast*';

export const SCENARIOS: Scenario[] = [
  { title: 'Help overview', run: (d) => d.slash('help') },
  { title: 'Help on one topic', run: (d) => d.slash('help regions') },
  { title: 'Help on a topic that does not exist', run: (d) => d.slash('help regoins') },
  { title: 'A mistyped command', run: (d) => d.slash('vesels dev') },
  { title: 'A command with an unknown flag', run: (d) => d.slash('logs dev lobby-1 --map _de_dust_') },
  { title: 'A command with missing arguments', run: (d) => d.slash('formation show dev') },
  { title: 'Images in a branch', run: (d) => d.slash('images dev') },
  { title: 'Images: nothing matches', run: (d) => d.slash('images dev game-server:9.9.9') },
  { title: 'Vessels in an environment', run: (d) => d.slash('vessels dev') },
  { title: 'A formation', run: (d) => d.slash('formation show dev lobby') },
  { title: 'A region', run: (d) => d.slash('region show dev eu-central') },
  { title: 'Armadas and ArmadaSets in an environment', run: (d) => d.slash('armadas prod') },
  { title: 'An armada', run: (d) => d.slash('armada show dev duel') },
  { title: 'An ArmadaSet', run: (d) => d.slash('armadaset show prod arena') },
  {
    title: 'Scale an armada: preview',
    run: (d) => d.slash('armada scale dev duel --type cloud --min 2 --max 30'),
  },
  {
    title: 'Scale an armada: a broken replica rule',
    run: (d) => d.slash('armada scale dev duel --type cloud --max 1'),
  },
  {
    title: 'Drain a region type: allocated game servers keep running',
    run: (d) => d.slash('armada scale dev duel --type baremetal --min 0 --buffer 0 --max 0'),
  },
  {
    title: 'Roll out an armada: preview, Confirm, rollout followed',
    run: async (d) => {
      await d.slash('armada image dev duel game-server:1.1.0');
      await d.click(CHANGE_ACTIONS.confirm);
    },
  },
  {
    title: 'Roll out an armada: a build that never becomes Ready (the message says so, naming the requester)',
    run: async (d) => {
      d.h.sim.setCrashingImage('dev', internalImageName('dev', 'game-server', '1.1.0'), 'exit code 1');
      await d.slash('armada image dev duel game-server:1.1.0');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.threadReply(/has not moved/);
      await d.h.running.bot.followUpsDone();
    },
  },
  {
    title: 'Roll out an ArmadaSet without counts (the public shape): synced, the rollout not verified',
    fleetCounts: false,
    run: async (d) => {
      await d.slash('armadaset image dev arena game-server:1.2.0');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.threadReply(/not verified/);
      await d.h.running.bot.followUpsDone();
    },
  },
  {
    title:
      'Roll out an armada with ArmadaGameServerStates and no status counts: new servers never Ready, the rollout failed from the counts',
    fleetCounts: false,
    serverStates: true,
    run: async (d) => {
      d.h.sim.setCrashingImage('dev', internalImageName('dev', 'game-server', '1.1.0'), 'exit code 1');
      await d.slash('armada image dev duel game-server:1.1.0');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.threadReply(/has not moved/);
      await d.h.running.bot.followUpsDone();
    },
  },
  {
    title: 'An armada Degraded by a Site',
    run: async (d) => {
      d.h.sim.setSite('fra-cloud-1-01', { state: 'Error', reason: 'connection lost' });
      await d.slash('armada show dev duel');
    },
  },
  {
    title: 'An armada Degraded by a Site found through its Location (a Location of two Sites)',
    run: async (d) => {
      d.h.sim.setSite('fra-bm-1-02', { state: 'Error', reason: 'connection lost' });
      await d.slash('armada show dev duel');
    },
  },
  {
    title: 'An armada Degraded, the Sites behind it unknown (Locations refused): never "Connected"',
    run: async (d) => {
      d.h.sim.setSite('fra-bm-1-02', { state: 'Error', reason: 'connection lost' });
      d.h.sim.setFaults([{ method: 'GET', path: '/api/core/v1/locations', status: 403 }]);
      await d.slash('armada show dev duel');
    },
  },
  {
    title: 'Sites: state, cordon and the fleets behind each, in every environment you may read',
    run: async (d) => {
      d.h.sim.setSite('fra-bm-1-02', { state: 'Error', reason: 'connection lost' });
      d.h.sim.setSite('sfo-cloud-1-01', { cordoned: true });
      await d.slash('sites');
      await d.slash('sites us-west');
      await d.slash('sites eu-centrl');
    },
  },
  {
    title: 'Terminate a stuck game server: danger preview',
    run: (d) => d.slash('gameserver terminate fra-bm-1-01 duel-baremetal-0'),
  },
  {
    title: 'Roll out an ArmadaSet: it already runs that build',
    run: (d) => d.slash('armadaset image prod arena game-server:1.0.0'),
  },
  {
    title: 'Roll out an armada: an image:tag the branch lacks',
    run: (d) => d.slash('armada image prod duel game-server:1.2.0'),
  },
  ...ROLLBACK_SCENARIOS,
  ...ROLLBACK_PREVIEW_SCENARIOS,
  ...SCHEDULE_SCENARIOS,
  {
    title: 'Promote into prod: the rollouts it triggers',
    run: (d) => d.slash('promote game-server:1.2.0 from dev to prod'),
  },
  {
    title: 'Armada scale modal',
    run: async (d) => {
      await d.slash('armada scale dev duel');
      await d.submit({ type: 'cloud', maxReplicas: '30' });
    },
  },
  {
    title: 'ArmadaSet image modal',
    run: async (d) => {
      await d.slash('armadaset image dev arena');
      await d.submit({ image: 'game-server:1.2.0' });
    },
  },
  { title: 'Recent log lines', run: (d) => d.slash('logs dev lobby-1 --lines 5') },
  { title: 'Not found: environment', run: (d) => d.slash('vessels Dve') },
  { title: 'Not found: formation', run: (d) => d.slash('formation show dev lobbby') },
  { title: 'Not found: region', run: (d) => d.slash('region show dev eu-centrl') },
  { title: 'Not found: vessel', run: (d) => d.slash('vessel delete dev lobby-9') },
  { title: 'Not found: armada', run: (d) => d.slash('armada show dev dual') },
  { title: 'Not found: branch', run: (d) => d.slash('images stagng') },
  {
    title: 'Promote without approval: preview, Confirm, done',
    run: async (d) => {
      await d.slash('promote game-server:1.2.0 from dev to staging');
      await d.click(CHANGE_ACTIONS.confirm);
    },
  },
  {
    title: 'Promote into prod: waits for an approval, approved',
    run: async (d) => {
      await d.slash('promote game-server:1.2.0 from dev to prod');
      await d.click(CHANGE_ACTIONS.approve, BOB);
    },
  },
  {
    title: 'Promote into prod: rejected',
    run: async (d) => {
      await d.slash('promote game-server:1.2.0 from dev to prod');
      await d.click(CHANGE_ACTIONS.reject, BOB);
      await d.submit({ reason: '' }, BOB);
      await d.submit({ reason: 'Freeze until the tournament ends' }, BOB);
    },
  },
  {
    title: 'Approving your own change, or without being an approver',
    run: async (d) => {
      await d.slash('promote game-server:1.2.0 from dev to prod');
      await d.click(CHANGE_ACTIONS.approve, ALICE);
    },
  },
  {
    title: 'Pending approvals, privately',
    run: async (d) => {
      await d.slash('approvals', CAROL);
      await d.slash('promote game-server:1.2.0 from dev to prod');
      await d.slash('promote game-server:1.1.0 from dev to prod');
      await d.slash('approvals', CAROL);
      await d.clickEphemeral(CHANGE_ACTIONS.approve, CAROL);
    },
  },
  {
    title: 'Formation remove in prod: the last vessel, destructive, waits for an approval',
    run: async (d) => {
      await d.slash('formation remove prod arena arena-1');
      await d.click(CHANGE_ACTIONS.approve, BOB);
    },
  },
  {
    title: 'History from the audit log',
    run: async (d) => {
      await d.slash('history');
      await d.slash('promote game-server:1.2.0 from dev to staging');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.slash('history');
      await d.slash('history prod');
    },
  },
  {
    title: 'Vessel delete: destructive preview, Confirm, gone',
    run: async (d) => {
      await d.slash('vessel delete dev duel-1');
      await d.click(CHANGE_ACTIONS.confirm);
      await d.threadReply(/duel-1 is gone/);
    },
  },
  {
    title: 'Formation add with an override: Confirm, scheduled',
    run: async (d) => {
      await d.slash(
        'formation add dev lobby lobby-3 eu-central --container game-server --image game-server:1.2.0 --args "--mode ranked"',
      );
      await d.click(CHANGE_ACTIONS.confirm);
      await d.threadReply(/lobby-3 is placed/);
    },
  },
  {
    title: 'Formation add with arguments that look like mrkdwn',
    run: (d) =>
      d.slash(
        `formation add dev lobby lobby-3 eu-central --container game-server --args "--map ${USER_MRKDWN}"`,
      ),
  },
  {
    title: 'Formation remove: Cancel',
    run: async (d) => {
      await d.slash('formation remove dev lobby lobby-2');
      await d.click(CHANGE_ACTIONS.cancel);
    },
  },
  {
    title: 'Region scheduling in prod: waits for an approval',
    run: (d) => d.slash('region scheduling prod eu-central baremetal Distributed'),
  },
  {
    title: 'Region scheduling: nothing to change',
    run: (d) => d.slash('region scheduling dev eu-central baremetal Packed'),
  },
  {
    title: 'Policy denial',
    policy: DENYING_POLICY,
    run: (d) => d.slash('formation remove prod arena arena-1'),
  },
  {
    title: 'A change nobody could ever approve',
    policy: TWO_SRE_POLICY,
    run: (d) => d.slash('formation remove prod arena arena-1', BOB),
  },
  {
    title: 'A form the policy refuses does not open',
    policy: DENYING_POLICY,
    run: (d) => d.slash('formation remove prod arena'),
  },
  {
    title: 'Promote what the target already has: nothing to change',
    run: (d) => d.slash('promote game-server:1.0.0 from dev to prod'),
  },
  {
    title: 'Promote modal: open, submit, preview',
    run: async (d) => {
      await d.slash('promote');
      await d.submit({ image: 'game-server:1.2.0', targetBranch: 'prod' });
    },
  },
  {
    title: 'Vessel create modal: field errors, then a preview',
    run: async (d) => {
      await d.slash('vessel create dev');
      await d.submit({ 'container.ports': 'game:seventy/UDP', 'container.cpu': 'lots' });
      await d.submit({ name: 'tourney-1', region: 'eu-central', 'container.image': 'game-server:1.2.0' });
    },
  },
  {
    title: 'Vessel create modal: a name that already exists',
    run: async (d) => {
      await d.slash('vessel create dev');
      await d.submit({ name: 'lobby-1', region: 'eu-central', 'container.image': 'game-server:1.2.0' });
    },
  },
  {
    title: 'Vessel create modal: an environment that does not exist',
    run: (d) => d.slash('vessel create stag'),
  },
  {
    title: 'Formation add modal',
    run: async (d) => {
      await d.slash('formation add dev lobby');
      await d.submit({ vessel: 'lobby-3', region: 'eu-central' });
    },
  },
  {
    title: 'Region create modal',
    run: async (d) => {
      await d.slash('region create dev');
      await d.submit({
        name: 'eu-west',
        'type.0.name': 'baremetal',
        'type.0.locations': 'par-bm-1',
        'type.0.scheduling': 'Distributed',
      });
    },
  },
  {
    title: 'Release: start, open a form from its buttons, end',
    run: async (d) => {
      await d.slash('release start Season 4 launch');
      await d.click(RELEASE_ACTIONS.formationRemove);
      await d.slash('release end Season 4 launch');
    },
  },
  {
    title: 'Release: ended by its button',
    run: async (d) => {
      await d.slash('release start Season 5');
      await d.click(RELEASE_END_ACTION);
    },
  },
  {
    title: 'Release: the forms behind its buttons',
    run: async (d) => {
      await d.slash('release start Season 4 launch');
      const release = d.h.lastMessage();
      await d.click(RELEASE_ACTIONS.promote, ALICE, release);
      await d.click(RELEASE_ACTIONS.formationAdd, ALICE, release);
      await d.click(RELEASE_ACTIONS.tailLogs, ALICE, release);
    },
  },
  {
    title: 'Tail logs form: open, every field problem at once',
    run: async (d) => {
      await d.slash('logs dev');
      await d.submit({ container: 'Game Server!' });
    },
  },
  {
    title: 'Formation remove form from the slash command',
    run: async (d) => {
      await d.slash('formation remove dev lobby');
      await d.submit({ vessel: 'lobby-2' });
    },
  },
  {
    title: 'Region scheduling form: open, preview',
    run: async (d) => {
      await d.slash('region scheduling dev eu-central');
      await d.submit({ region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' });
    },
  },
  {
    title: 'Share in channel',
    run: async (d) => {
      await d.slash('vessels dev');
      await d.clickEphemeral(SHARE_ACTION, ALICE);
    },
  },
  { title: 'Release end: no such release', run: (d) => d.slash('release end Season 9') },
  {
    title: 'Watch an environment, an alert, What changed, recovered in place',
    run: async (d) => {
      await d.slash('watch dev');
      await d.watchFor(60_000);
      await d.failVessel('dev', 'duel-1', 'OOMKilled: exit code 137');
      await d.watchFor(2 * 60_000);
      await d.click(ALERT_ACTIONS.whatChanged);
      await d.slash('watches');
      await d.failVessel('dev', 'duel-1');
      await d.watchFor(3 * 60_000);
    },
  },
  {
    title: 'Watch: one Site down, one alert naming every fleet behind it, edited as they recover',
    run: async (d) => {
      await d.slash('watch dev');
      await d.watchFor(60_000);
      d.h.sim.setSite('fra-bm-1-02', { state: 'Error', reason: 'connection lost' });
      await d.watchFor(2 * 60_000);
      // duel leaves the bare-metal type whose Location holds the Site: it recovers, the Site does not.
      await fetch(`${d.h.sim.url}/api/armada/v1/environments/dev/armadas/duel`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${d.h.sim.token}`, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({
          spec: { distribution: [{ name: 'cloud', minReplicas: 0, bufferSize: 2, maxReplicas: 20 }] },
        }),
      });
      await d.watchFor(60_000);
      d.h.sim.setSite('fra-bm-1-02', undefined);
      await d.watchFor(3 * 60_000);
    },
  },
  { title: 'Watch: an environment that does not exist', run: (d) => d.slash('watch staging') },
  {
    title: 'Watch: a ScaleUpPanicked alert (a Scale to Zero armada whose new build never becomes Ready)',
    fleetCounts: false,
    serverStates: true,
    run: async (d) => {
      await d.slash('watch dev');
      await d.outside(
        'dev armada duel: Scale to Zero on, Recreate, rolled out to game-server:1.0.0, which crashes on start',
        () => crashDuel(d.h.sim, true),
      );
      await d.watchFor(2 * 60_000);
    },
  },
  {
    title: 'Watch: no Ready servers while the armada keeps a buffer (counts from ArmadaGameServerStates)',
    fleetCounts: false,
    serverStates: true,
    run: async (d) => {
      await d.slash('watch dev');
      await d.outside(
        'dev armada duel: Recreate, rolled out to game-server:1.0.0, which crashes on start',
        () => crashDuel(d.h.sim, false),
      );
      await d.watchFor(2 * 60_000);
    },
  },
  {
    title: 'Watch: a vessel out of Running past the documented 10 minutes (its build crashes on start)',
    run: async (d) => {
      await d.slash('watch dev');
      await d.outside(
        'vessel lobby-9 created in dev on game-server:1.0.0, which crashes on start',
        async () => {
          d.h.sim.setCrashingImage('dev', internalImageName('dev', 'game-server', '1.0.0'), 'exit code 1');
          await simSend(d.h.sim, 'POST', '/api/formation/v1/environments/dev/vessels', {
            apiVersion: 'formation/v1beta1',
            kind: 'Vessel',
            metadata: { name: 'lobby-9', environment: 'dev' },
            spec: {
              region: 'eu-central',
              template: {
                spec: {
                  containers: [
                    {
                      name: 'game-server',
                      branch: 'dev',
                      image: internalImageName('dev', 'game-server', '1.0.0'),
                    },
                  ],
                },
              },
            },
          });
        },
      );
      await d.watchFor(11 * 60_000);
    },
  },
  {
    title: 'Freeze an environment: the answer, the list, a change refused, unfreeze',
    policy: FREEZE_POLICY,
    run: async (d) => {
      await d.slash('freeze dev for 2h tournament final');
      await d.slash('freezes');
      await d.slash('formation remove dev lobby lobby-2');
      await d.slash('unfreeze dev');
    },
  },
  {
    title: 'Freeze without an end; a preview refused at Confirm',
    policy: FREEZE_POLICY,
    run: async (d) => {
      await d.slash('formation remove dev lobby lobby-2');
      await d.slash('freeze dev', BOB);
      await d.click(CHANGE_ACTIONS.confirm);
    },
  },
  {
    title: 'Break glass during a freeze: the preview, approved by a break-glass approver',
    policy: FREEZE_POLICY,
    run: async (d) => {
      await d.slash('freeze dev for 1h tournament final', BOB);
      await d.slash('formation remove dev lobby lobby-2 --break-glass "lobby-2 crashes every match"');
      await d.click(CHANGE_ACTIONS.approve, ALICE);
      await d.click(CHANGE_ACTIONS.approve, BOB);
    },
  },
  {
    title: 'Break glass refused: the policy names no break-glass approvers',
    run: (d) => d.slash('formation remove dev lobby lobby-2 --break-glass "urgent"'),
  },
  { title: 'Freeze: a duration it cannot read', run: (d) => d.slash('freeze dev for 2w') },
  // Guarded rollouts (issue 42), last so the entries before keep their numbers.
  ...GUARD_SCENARIOS,
];
