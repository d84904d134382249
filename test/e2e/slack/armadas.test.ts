/**
 * Armada reads end to end: `armadas <env>`, `armada show` and `armadaset show`
 * through the real bot against the simulator's demo data, privately answered;
 * unknown names get a did-you-mean and the list; bad names are usage answers
 * before any API call.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { internalImageName } from '../../../src/simulator/image-names.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const answer = () => {
  const answers = h.slack.ephemerals().filter((e) => e.user === ALICE.id);
  expect(answers).toHaveLength(1);
  return answers[0];
};

describe('armadas <env>', () => {
  it('lists ArmadaSets and Armadas with regions, replicas per type, image, state, owner and updaters', async () => {
    await h.slash('armadas prod');
    const message = answer();
    expect(message?.text).toBe('3 armadas and 1 ArmadaSet in environment *prod*: 4 Synced');
    const text = shown(message);
    expect(text).toContain(
      '*arena* (ArmadaSet) · `eu-central`, `us-west` · Synced · `game-server:1.0.0` · ImageUpdater arena-game-server (game-server in prod)',
    );
    expect(text).toContain('`eu-central/baremetal` min 4 · buffer 2 · max 12 · 4 up, 2 ready, 2 allocated');
    expect(text).toContain('`us-west/cloud` min 2 · buffer 1 · max 8 · 2 up, 1 ready, 1 allocated');
    expect(text).toContain(
      '*arena-eu-central* · `eu-central` · Synced · `game-server:1.0.0` · owned by ArmadaSet `arena` · rolled out with ArmadaSet `arena`',
    );
    expect(text).toContain('*duel* · `us-west` · Synced · `game-server:1.0.0` · no ImageUpdater');
    expect(text).toContain('`baremetal` min 2 · buffer 2 · max 10 · 3 up, 2 ready, 1 allocated');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('puts a Degraded armada first, with its reason (a Site of its region that cannot take the configuration)', async () => {
    // Only duel has the cloud type in eu-central: its Site's outage degrades duel alone.
    h.sim.setSite('fra-cloud-1-01', { state: 'Error', reason: 'connection lost' });
    await h.slash('armadas dev');
    const text = shown(answer());
    expect(text).toContain(
      '*duel* · `eu-central` · *Degraded* (could not sync to site fra-cloud-1-01 (Error: connection lost))',
    );
    expect(text.indexOf('*duel*')).toBeLessThan(text.indexOf('*arena*'));
  });

  it('names the environments there are for an unknown one', async () => {
    await h.slash('armadas stg');
    expect(h.ephemeralTexts(ALICE).join('\n')).toContain('No environment `stg`.');
  });
});

describe('armada show / armadaset show', () => {
  it('shows one armada: state, counts, containers, strategy and each region type', async () => {
    await h.slash('armada show dev duel');
    const message = answer();
    expect(message?.text).toBe('Armada duel in dev: Synced, 5 up, 4 ready, 1 allocated');
    const text = shown(message);
    expect(text).toContain('`game-server` image `game-server:1.2.0` from branch `dev`');
    expect(text).toContain('Rolling update: max surge 25%, max unavailable 0');
    expect(text).toContain('`cloud` min 0 · buffer 2 · max 20 · 2 up, 2 ready, 0 allocated');
    expect(text).toContain(
      'New images: no ImageUpdater rolls this out; roll it out with `/harbor armada image`.',
    );
  });

  it('points an owned armada to its ArmadaSet', async () => {
    await h.slash('armada show prod arena-us-west');
    expect(shown(answer())).toContain(
      'Owned by ArmadaSet `arena`: change it there (`/harbor armadaset show prod arena`)',
    );
  });

  it('shows an ArmadaSet with the armada of each region and its ImageUpdater', async () => {
    await h.slash('armadaset show prod arena');
    const text = shown(answer());
    expect(text).toContain('• `eu-central`: *arena-eu-central* Synced');
    expect(text).toContain('• `us-west`: *arena-us-west* Synced');
    expect(text).toContain('New images rolled out by ImageUpdater arena-game-server (game-server in prod)');
  });

  it('answers an unknown armada with a did-you-mean and the list', async () => {
    await h.slash('armada show dev dual');
    expect(h.ephemeralTexts(ALICE)).toEqual([
      'No armada `dual` in environment `dev`. Did you mean `duel`? Armadas in dev: `arena-eu-central`, `arena-us-west`, `duel`.',
    ]);
  });

  it('armada show names the Site behind a Degraded armada, and says so when Sites cannot be read', async () => {
    h.sim.setSite('fra-cloud-1-01', { state: 'Error', reason: 'connection lost' });
    await h.slash('armada show dev duel');
    expect(shown(answer())).toContain('Sites behind it: site fra-cloud-1-01: Error, connection lost');
    h.sim.setFaults([{ method: 'GET', path: '/api/core/v1/sites', status: 403 }]);
    await h.slash('armadaset show dev arena');
    // arena is not behind that Site (its eu-central type is baremetal): Synced, no Sites read.
    const set = h.slack
      .ephemerals()
      .filter((e) => e.user === ALICE.id)
      .at(-1);
    expect(shown(set)).not.toContain('Sites');
    h.sim.setSite('fra-bm-1-01', { state: 'Pending' });
    await h.slash('armadaset show dev arena');
    const refused = h.slack
      .ephemerals()
      .filter((e) => e.user === ALICE.id)
      .at(-1);
    expect(shown(refused)).toContain('*Degraded*');
    expect(shown(refused)).toContain(
      'Sites: unknown: the Sites could not be read (HTTP 403: not permitted).',
    );
    expect(shown(refused)).not.toContain('Connected');
  });

  it('armada show names the Site through its Location, and says the Sites are unknown when the Locations are refused', async () => {
    // fra-bm-1 is made up of two Sites; the second one down is found only through the Location's list.
    h.sim.setSite('fra-bm-1-02', { state: 'Error', reason: 'connection lost' });
    await h.slash('armada show dev duel');
    expect(shown(answer())).toContain('Sites behind it: site fra-bm-1-02: Error, connection lost');
    h.sim.setFaults([{ method: 'GET', path: '/api/core/v1/locations', status: 403 }]);
    await h.slash('armada show dev duel');
    const unknown = shown(
      h.slack
        .ephemerals()
        .filter((e) => e.user === ALICE.id)
        .at(-1),
    );
    expect(unknown).toContain('Sites: unknown: the Locations could not be read (HTTP 403: not permitted).');
    expect(unknown).not.toContain('Connected');
  });

  it.each([true, false])(
    'shows a region type parked by Scale to Zero as such, not as an outage (counts %s)',
    async (fleetCounts) => {
      const t = fleetCounts ? h : await startBotHarness({ fleetCounts: false });
      try {
        const res = await fetch(`${t.sim.url}/api/armada/v1/environments/dev/armadas/duel`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${t.sim.token}`, 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify({ spec: { autoscaling: { scaleToZero: {} } } }),
        });
        expect(res.status).toBe(200);
        await t.slash('armada show dev duel');
        const text = shown(
          t.slack
            .ephemerals()
            .filter((e) => e.user === ALICE.id)
            .at(-1),
        );
        expect(text).toContain(
          'scaled to zero by Scale to Zero (parked while a higher-priority type has room; not an outage)',
        );
        expect(text).toContain('highest priority: never scaled to zero');
      } finally {
        if (t !== h) await t.stop();
      }
    },
  );

  it('names across both kinds: armada show on an ArmadaSet shows it, armadasets lists, a change points to the right kind', async () => {
    await h.slash('armada show dev arena');
    expect(answer()?.text).toMatch(/^ArmadaSet arena in dev/);
    await h.slash('armadasets dev');
    const listed = h.slack.ephemerals().filter((e) => e.user === ALICE.id);
    expect(listed.at(-1)?.text).toContain('3 armadas and 1 ArmadaSet in environment *dev*');
    await h.slash('armada scale dev arena --max 9');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      '`arena` in environment `dev` is an ArmadaSet, not an armada: use `armadaset …`',
    );
    await h.slash('armadaset show dev duel');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('`duel` is an armada there (`armada show dev duel`)');
  });

  it('answers an unknown ArmadaSet with a did-you-mean and the list', async () => {
    await h.slash('armadaset show prod arenna');
    expect(h.ephemeralTexts(ALICE)).toEqual([
      'No ArmadaSet `arenna` in environment `prod`. Did you mean `arena`? ArmadaSets in prod: `arena`.',
    ]);
  });

  it('refuses a name the platform cannot hold, before any API call', async () => {
    await h.slash('armada show dev Duel_1');
    expect(h.ephemeralTexts(ALICE).join('\n')).toContain('not a valid armada name');
    expect(h.sim.requests).toHaveLength(0);
  });

  it('answers a missing sub-command with the forms', async () => {
    await h.slash('armadaset');
    expect(h.ephemeralTexts(ALICE).join('\n')).toContain('`armadaset` needs a sub-command: `show`');
  });
});

// ArmadaGameServerStates on both status shapes: the counts by state where served, "not known" where not.
describe('armada show with game server counts (ArmadaGameServerStates)', () => {
  for (const fleetCounts of [true, false]) {
    it(`shows the game servers by state and by build where served, status counts ${fleetCounts ? 'on' : 'off'}`, async () => {
      const t = await startBotHarness({ fleetCounts, serverStates: true });
      try {
        t.sim.setCrashingImage('dev', internalImageName('dev', 'game-server', '1.0.0'), 'exit code 1');
        await t.slash('armada image dev duel game-server:1.0.0');
        await t.click(t.lastMessage(), CHANGE_ACTIONS.confirm);
        await t.slash('armada show dev duel');
        const text = shown(
          t.slack
            .ephemerals()
            .filter((e) => e.user === ALICE.id)
            .at(-1),
        );
        expect(text).toMatch(
          /Game servers: 4 Ready, 1 Allocated, \d+ Unhealthy _\(ArmadaGameServerStates\)_/,
        );
        expect(text).toMatch(/`game-server:1\.0\.0`: \d+ Unhealthy/);
        expect(text).toContain('`game-server:1.2.0`: 4 Ready, 1 Allocated');
        await t.slash('armadaset show dev arena');
        expect(
          shown(
            t.slack
              .ephemerals()
              .filter((e) => e.user === ALICE.id)
              .at(-1),
          ),
        ).toMatch(/Game servers: \d+ Ready, \d+ Allocated _\(ArmadaGameServerStates\)_/);
      } finally {
        await t.stop();
      }
    });
  }

  it('says the game servers are not known where neither the states nor the status counts can be read', async () => {
    const t = await startBotHarness({ fleetCounts: false });
    try {
      await t.slash('armada show dev duel');
      expect(
        shown(
          t.slack
            .ephemerals()
            .filter((e) => e.user === ALICE.id)
            .at(-1),
        ),
      ).toContain(
        "Game servers: *not known*: game server counts could not be read (armadagameserverstates: HTTP 404, not served), and the status reports no counts. Check the GameFabric console's game server list.",
      );
    } finally {
      await t.stop();
    }
  });
});
