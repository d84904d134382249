/**
 * `armada image` and `armadaset image` end to end: the preview shows the old
 * and new image:tag, Confirm replaces that container's image only, and the
 * thread follows the rollout on what the status shows. With counts: until
 * every game server is updated, or failed when they stop moving (a build
 * that never becomes Ready). Without counts (the public shape): Synced ends
 * it saying the rollout is not verified and where to look, never "rolled
 * out"; with ArmadaGameServerStates served (on either shape) the counts by
 * build decide, and a build whose new servers never become Ready ends failed,
 * naming what the counts showed. Degraded is a Site
 * that cannot take the configuration, explained and watched, never called a
 * stuck rollout. The channel message carries where the follow-up ended, and a
 * failed end @mentions the requester. An image:tag missing from the container's branch is answered with
 * the tags there; unknown names and containers with what exists; an owned
 * Armada points to its ArmadaSet; an ImageUpdater on the target is warned
 * about; prod waits for an approval; a preview the world outgrew writes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { internalImageName } from '../../../src/simulator/image-names.js';
import { makeImage } from '../../../src/simulator/images.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttonIds, current, shown, waitForThreadReply } from './harness-extras.js';

const waitForThreadReplyOf = waitForThreadReply;

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const patches = (env: string, plural = 'armadas') =>
  h.sim.countRequests('PATCH', `/api/armada/v1/environments/${env}/${plural}`);
const armadaImage = (env: string, name: string) =>
  h.sim.state.getArmada(env, name)?.spec.template.spec.containers[0]?.image;

describe('armada image', () => {
  it('previews old → new image:tag, rolls out on Confirm and follows until every game server runs it (counts present)', async () => {
    await h.slash('armada image dev duel game-server:1.1.0');
    const preview = h.lastMessage();
    expect(preview.text).toContain(
      'Roll out armada duel (dev), container game-server: game-server:1.2.0 → game-server:1.1.0',
    );
    expect(buttonIds(preview)).toEqual([CHANGE_ACTIONS.confirm, CHANGE_ACTIONS.cancel]);
    expect(patches('dev')).toBe(0);

    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(patches('dev')).toBe(1);
    expect(armadaImage('dev', 'duel')).toBe(internalImageName('dev', 'game-server', '1.1.0'));
    // Not Done before anyone saw the servers replaced.
    expect(current(h, preview).text).toMatch(
      /^Applied, rollout followed: Set armada duel \(dev\), container game-server, to game-server:1\.1\.0; the rollout is followed in this thread/,
    );
    await waitForThreadReply(
      h,
      preview,
      /Done: Armada duel \(dev\): every game server runs game-server:1.1.0: Synced \(configuration on every site\) · 5 up/,
    );
    await h.running.bot.followUpsDone();
    expect(current(h, preview).text).toMatch(/^Done: /);
  });

  it('explains a Degraded fleet by the Site behind it and keeps watching, not calling it a stuck rollout', async () => {
    h.sim.setSite('fra-bm-1-01', { state: 'Error', reason: 'connection lost' });
    await h.slash('armada image dev duel game-server:1.0.0');
    const preview = h.lastMessage();
    await h.click(preview, CHANGE_ACTIONS.confirm);
    const reply = await waitForThreadReply(h, preview, /Armada duel: Degraded/);
    expect(String(reply.body.text)).toContain('site fra-bm-1-01: Error, connection lost');
    expect(String(reply.body.text)).toContain('still watching');
    expect(String(reply.body.text)).not.toMatch(/has not moved|stuck/);
    // The Site comes back: the configuration syncs and the rollout is seen through.
    h.sim.setSite('fra-bm-1-01', undefined);
    await waitForThreadReply(
      h,
      preview,
      /Done: Armada duel \(dev\): every game server runs game-server:1.0.0/,
    );
  });

  it('reports a build whose game servers never become Ready as a failed rollout, on the message too, naming the requester', async () => {
    // A bad build: the image exists, but its servers fail as they start.
    h.sim.setCrashingImage(
      'dev',
      internalImageName('dev', 'game-server', '1.0.0'),
      'exit code 137 (OOMKilled)',
    );
    await h.slash('armada image dev duel game-server:1.0.0');
    const preview = h.lastMessage();
    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(armadaImage('dev', 'duel')).toBe(internalImageName('dev', 'game-server', '1.0.0'));
    // The platform reports no crash: it stays Synced, and the new servers never become Ready.
    expect(h.sim.state.getArmada('dev', 'duel')?.status?.state).toBe('Synced');
    const reply = await waitForThreadReply(h, preview, /rollout to game-server:1.0.0 has not moved/);
    expect(String(reply.body.text)).toContain(`<@${ALICE.id}>`);
    expect(String(reply.body.text)).toContain('0 of 7 game servers run it');
    expect(String(reply.body.text)).toContain('not becoming Ready');
    await h.running.bot.followUpsDone();
    const top = current(h, preview);
    expect(top.text).toMatch(/^Applied, then failed: /);
    expect(shown(top)).toContain(`<@${ALICE.id}>`);
    expect(shown(top)).toContain('has not moved');
  });
  it('warns about a downgrade, an image of another name in the container, and the Recreate dip', async () => {
    await h.slash('armada image dev duel game-server:1.1.0');
    expect(shown(h.lastMessage())).toContain(
      'This is a downgrade: Container game-server of armada duel runs game-server:1.2.0, newer than game-server:1.1.0.',
    );
    await h.slash('armada image dev duel sidecar-metrics:0.3.0');
    expect(shown(h.lastMessage())).toContain(
      'Container game-server of armada duel runs game-server now, not sidecar-metrics: rolling out sidecar-metrics:0.3.0 puts an image of another name into it.',
    );
    const res = await fetch(`${h.sim.url}/api/armada/v1/environments/dev/armadas/duel`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${h.sim.token}`, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({
        spec: { template: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } } },
      }),
    });
    expect(res.status).toBe(200);
    await h.slash('armada image dev duel game-server:1.0.0');
    const recreate = shown(h.lastMessage());
    expect(recreate).toContain('Recreate: all unallocated game servers at once');
    expect(recreate).toContain(
      'uses the Recreate strategy: every unallocated game server is replaced at once',
    );
    expect(recreate).not.toContain('rolling update');
  });

  it('answers an image:tag the branch lacks with the tags it has', async () => {
    await h.slash('armada image prod duel game-server:1.2.0');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'Branch prod has no game-server:1.2.0; it has game-server:1.0.0. Promote 1.2.0 into prod first',
    );
    await h.slash('armada image dev duel matchmaker:1.0.0');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'Branch dev has no image matchmaker (its images: game-server, sidecar-metrics).',
    );
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(patches('dev') + patches('prod')).toBe(0);
  });

  it('answers unknown armadas and containers with what exists, and a ref without a tag with usage', async () => {
    await h.slash('armada image dev dule game-server:1.1.0');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'No armada `dule` in environment `dev`. Did you mean `duel`?',
    );
    await h.slash('armada image dev duel game-server:1.1.0 --container sidecar');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'armada duel has no container sidecar (its containers: game-server).',
    );
    await h.slash('armada image dev duel game-server');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('`&lt;image&gt;:&lt;tag&gt;` needs a tag');
    await h.slash('armada image dev duel game-server:1.2.0');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('already runs game-server:1.2.0; nothing to change');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('points an armada owned by an ArmadaSet to the ArmadaSet', async () => {
    await h.slash('armada image dev arena-us-west game-server:1.2.0');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'Armada arena-us-west is owned by ArmadaSet arena, whose template puts its image back: roll out the ArmadaSet instead (armadaset image dev arena game-server:1.2.0)',
    );
  });

  it('writes nothing when the image changed between preview and Confirm', async () => {
    await h.slash('armada image dev duel game-server:1.1.0');
    const preview = h.lastMessage();
    const other = internalImageName('dev', 'game-server', '1.0.0');
    const res = await fetch(`${h.sim.url}/api/armada/v1/environments/dev/armadas/duel`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${h.sim.token}`, 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: other }]),
    });
    expect(res.status).toBe(200);
    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(armadaImage('dev', 'duel')).toBe(other);
    expect(shown(current(h, preview))).toContain('changed since the preview');
    expect(shown(current(h, preview))).toContain('nothing was changed');
  });
});

describe('armadaset image', () => {
  it('rolls every region out and follows it to Synced', async () => {
    await h.slash('armadaset image dev arena game-server:1.2.0');
    const preview = h.lastMessage();
    expect(preview.text).toContain('game-server:1.1.0 → game-server:1.2.0');
    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(h.sim.state.getArmadaSet('dev', 'arena')?.spec.template.spec.containers[0]?.image).toBe(
      internalImageName('dev', 'game-server', '1.2.0'),
    );
    await waitForThreadReply(h, preview, /ArmadaSet arena \(dev\): every game server runs game-server:1.2.0/);
  });

  it('in prod warns about the ImageUpdater that targets it and waits for an approval', async () => {
    await h.stop();
    // An older build already in prod: rolling back to it is what an on-call person would do.
    h = await startBotHarness({
      world: (d) => d.branches.prod?.push(makeImage('prod', 'game-server', '0.9.0')),
    });
    await h.slash('armadaset image prod arena game-server:0.9.0');
    const preview = h.lastMessage();
    expect(preview.text).toMatch(/^Waiting for approval/);
    expect(shown(preview)).toContain('ImageUpdater arena-game-server rolls ArmadaSet arena out whenever');
    expect(buttonIds(preview)).toEqual([
      CHANGE_ACTIONS.approve,
      CHANGE_ACTIONS.reject,
      CHANGE_ACTIONS.cancel,
    ]);
    await h.click(preview, CHANGE_ACTIONS.approve, BOB);
    expect(patches('prod', 'armadasets')).toBe(1);
  });
});

describe('without counts (the public shape)', () => {
  let bare: BotHarness;
  beforeEach(async () => {
    bare = await startBotHarness({ fleetCounts: false });
  });
  afterEach(async () => {
    await bare.stop();
  });

  it('ends on Synced saying what is known, never "rolled out", and the message and Home say Synced', async () => {
    await bare.slash('armadaset image dev arena game-server:1.2.0');
    const preview = bare.lastMessage();
    await bare.click(preview, CHANGE_ACTIONS.confirm);
    const reply = await waitForThreadReplyOf(
      bare,
      preview,
      /Synced, not verified: ArmadaSet arena \(dev\) runs game-server:1.2.0 in its template and its configuration is synced to every site, but the rollout is \*not verified\*: game server counts could not be read \(armadagameserverstates: HTTP 404, not served\) and its status reports no replica counts. Check that its new game servers become Ready in the GameFabric console's game server list \(ArmadaSet arena, environment dev\) or with `\/harbor armadaset show dev arena`/,
    );
    expect(String(reply.body.text)).not.toMatch(/cannot report|not reported by the API/);
    expect(String(reply.body.text)).not.toMatch(/rolled out|done rolling out/i);
    await bare.running.bot.followUpsDone();
    const top = current(bare, preview);
    expect(top.text).toMatch(/^Synced, not verified: /);
    expect(shown(top)).not.toMatch(/rolled out/i);
  });

  it('explains Degraded by the Site behind it here too, and ends on Synced once the Site is back', async () => {
    bare.sim.setSite('fra-bm-1-01', { state: 'Error', reason: 'connection lost' });
    await bare.slash('armada image dev duel game-server:1.0.0');
    const preview = bare.lastMessage();
    await bare.click(preview, CHANGE_ACTIONS.confirm);
    const reply = await waitForThreadReplyOf(bare, preview, /Armada duel: Degraded/);
    expect(String(reply.body.text)).toContain('site fra-bm-1-01: Error, connection lost');
    bare.sim.setSite('fra-bm-1-01', undefined);
    await waitForThreadReplyOf(
      bare,
      preview,
      /Synced, not verified: Armada duel \(dev\) runs game-server:1.0.0 in its template/,
    );
  });

  it('scales an armada and ends on Synced without claiming how many servers run', async () => {
    await bare.slash('armada scale dev duel --type cloud --max 30');
    const preview = bare.lastMessage();
    await bare.click(preview, CHANGE_ACTIONS.confirm);
    await waitForThreadReplyOf(
      bare,
      preview,
      /Armada duel \(dev\), region type cloud: configuration synced to every site; how many game servers run is \*not verified\* \(its status reports no replica counts\)/,
    );
  });

  it('a crashing build without any counts: the follow-up claims no more than the sync and says it is not verified', async () => {
    bare.sim.setCrashingImage('dev', internalImageName('dev', 'game-server', '1.0.0'), 'exit code 1');
    await bare.slash('armada image dev duel game-server:1.0.0');
    const preview = bare.lastMessage();
    await bare.click(preview, CHANGE_ACTIONS.confirm);
    await waitForThreadReplyOf(bare, preview, /the rollout is \*not verified\*/);
    await bare.running.bot.followUpsDone();
    expect(current(bare, preview).text).toMatch(/^Synced, not verified: /);
  });
});

// ArmadaGameServerStates served: the counts by build decide, with and without status counts.
for (const fleetCounts of [false, true]) {
  describe(`with armadagameserverstates (status counts ${fleetCounts ? 'on' : 'off'})`, () => {
    let counted: BotHarness;
    beforeEach(async () => {
      counted = await startBotHarness({ fleetCounts, serverStates: true });
    });
    afterEach(async () => {
      await counted.stop();
    });

    it('follows a rollout until every game server up runs the new build', async () => {
      await counted.slash('armada image dev duel game-server:1.1.0');
      const preview = counted.lastMessage();
      await counted.click(preview, CHANGE_ACTIONS.confirm);
      await waitForThreadReplyOf(
        counted,
        preview,
        /Done: Armada duel \(dev\): every game server up runs game-server:1.1.0: 4 Ready, 1 Allocated \(ArmadaGameServerStates\)/,
      );
      await counted.running.bot.followUpsDone();
      expect(current(counted, preview).text).toMatch(/^Done: /);
    });

    it('follows an ArmadaSet over the Armadas it owns', async () => {
      await counted.slash('armadaset image dev arena game-server:1.2.0');
      const preview = counted.lastMessage();
      await counted.click(preview, CHANGE_ACTIONS.confirm);
      await waitForThreadReplyOf(
        counted,
        preview,
        /Done: ArmadaSet arena \(dev\): every game server up runs game-server:1.2.0: \d+ Ready/,
      );
    });

    it('ends a rollout whose new servers never become Ready as failed, naming the counts it saw', async () => {
      counted.sim.setCrashingImage('dev', internalImageName('dev', 'game-server', '1.0.0'), 'exit code 1');
      await counted.slash('armada image dev duel game-server:1.0.0');
      const preview = counted.lastMessage();
      await counted.click(preview, CHANGE_ACTIONS.confirm);
      const reply = await waitForThreadReplyOf(
        counted,
        preview,
        /rollout to game-server:1.0.0 has not moved for .*: new build: 2 Unhealthy; previous build: 4 Ready, 1 Allocated \(ArmadaGameServerStates\)\. New game servers are not becoming Ready/,
      );
      expect(String(reply.body.text)).toContain(`<@${ALICE.id}>`);
      await counted.running.bot.followUpsDone();
      expect(current(counted, preview).text).toMatch(/^Applied, then failed: /);
    });
  });
}
