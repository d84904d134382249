/**
 * `armada scale` and `armadaset scale` end to end: the preview shows
 * before → after, Confirm writes that one distribution entry, the follow-up
 * reports the replicas in the thread; broken replica rules are named before
 * any preview; unknown names and types are answered with what exists; an owned
 * Armada points to its ArmadaSet; a drain stops only unallocated servers and
 * is not destructive; a dynamic buffer is warned about; prod waits for an
 * approval; a preview the world outgrew writes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttonIds, buttons, current, shown, waitForThreadReply } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const patches = (env: string, plural = 'armadas') =>
  h.sim.countRequests('PATCH', `/api/armada/v1/environments/${env}/${plural}`);
const entry = (env: string, name: string, type: string) =>
  h.sim.state.getArmada(env, name)?.spec.distribution.find((d) => d.name === type);

describe('armada scale', () => {
  it('previews before → after and changes only that region type on Confirm, then follows it', async () => {
    await h.slash('armada scale dev duel --type cloud --min 2 --max 30');
    const preview = h.lastMessage();
    expect(preview.text).toContain(
      'Scale armada duel, region type cloud (dev): min 0, buffer 2, max 20 → min 2, buffer 2, max 30',
    );
    expect(shown(preview)).toContain('0 → 2');
    expect(shown(preview)).toContain('20 → 30');
    expect(buttonIds(preview)).toEqual([CHANGE_ACTIONS.confirm, CHANGE_ACTIONS.cancel]);
    expect(patches('dev')).toBe(0);

    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(patches('dev')).toBe(1);
    expect(entry('dev', 'duel', 'cloud')).toMatchObject({ minReplicas: 2, bufferSize: 2, maxReplicas: 30 });
    expect(entry('dev', 'duel', 'baremetal')).toMatchObject({
      minReplicas: 2,
      bufferSize: 2,
      maxReplicas: 10,
    });
    expect(current(h, preview).text).toMatch(
      /^Done: Scaled armada duel \(dev\), region type cloud: min 2, buffer 2, max 30/,
    );
    await waitForThreadReply(h, preview, /Armada duel scaled: Synced/);
  });

  it('names the broken rule before any API call when all three values are given (min > max)', async () => {
    await h.slash('armada scale dev duel --type cloud --min 5 --max 3 --buffer 1');
    expect(h.ephemeralTexts(ALICE).join('\n')).toContain('`replicas`: max (3) must be &gt;= min (5)');
    expect(h.sim.requests).toHaveLength(0);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('names the broken rule for the merged values before any preview', async () => {
    await h.slash('armada scale dev duel --type cloud --max 1');
    expect(h.ephemeralTexts(ALICE).join('\n')).toContain(
      'Cannot scale armada duel, region type cloud to min 0, buffer 2, max 1: max (1) must be &gt;= buffer (2) (the rules: max &gt;= min and max &gt;= buffer; buffer &gt; 0 when max &gt; 0; min &gt;= buffer when min &gt; 0; setting all three to 0 drains it).',
    );
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(patches('dev')).toBe(0);
  });

  it('asks for --type when the armada has several, and names the types for one it lacks', async () => {
    await h.slash('armada scale dev duel --max 12');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'has 2 region types (baremetal, cloud): say which with --type',
    );
    await h.slash('armada scale dev duel --type gpu --max 12');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('has no region type gpu (its types: baremetal, cloud)');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('answers an unknown armada with a did-you-mean', async () => {
    await h.slash('armada scale dev dule --type cloud --max 12');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'No armada `dule` in environment `dev`. Did you mean `duel`?',
    );
  });

  it('points an armada owned by an ArmadaSet to the ArmadaSet', async () => {
    await h.slash('armada scale dev arena-us-west --max 12');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'Armada arena-us-west is owned by ArmadaSet arena, which puts its replicas back: scale the ArmadaSet instead (armadaset scale dev arena --region us-west ...)',
    );
    expect(patches('dev')).toBe(0);
  });

  it('answers a count that is not a number, and no values at all, with usage', async () => {
    await h.slash('armada scale dev duel --max lots');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      '`--max`: max must be a whole number from 0 to 2147483647, not `lots`.',
    );
    await h.slash('armada scale dev duel --type cloud');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('needs at least one of `--min`, `--max` and `--buffer`');
    expect(h.sim.requests).toHaveLength(0);
  });

  it('a drain (max 0) is not destructive: unallocated servers stop, allocated ones keep running (docs "Scaling down")', async () => {
    await h.slash('armada scale dev duel --type baremetal --min 0 --buffer 0 --max 0');
    const preview = h.lastMessage();
    expect(shown(preview)).toContain(
      'Max 0 drains region type baremetal of armada duel: no new game servers start there and unallocated ones stop; the 1 allocated one keeps running until its match ends',
    );
    expect(shown(preview)).not.toMatch(/every game server there stops|matches? ends?\b(?! )/);
    const confirm = buttons(preview).find((b) => b.action_id === CHANGE_ACTIONS.confirm);
    expect(confirm?.confirm?.style).not.toBe('danger');
    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(entry('dev', 'duel', 'baremetal')).toMatchObject({
      minReplicas: 0,
      bufferSize: 0,
      maxReplicas: 0,
    });
    await waitForThreadReply(h, preview, /1 allocated keep running until their matches end/);
    expect(h.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({ allocatedReplicas: 1 });
  });

  it('warns that a dynamic buffer overrides the buffer set (dynamicBuffer present, no enabled field)', async () => {
    const res = await fetch(`${h.sim.url}/api/armada/v1/environments/dev/armadas/duel`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${h.sim.token}`, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({
        spec: {
          distribution: [
            {
              name: 'baremetal',
              minReplicas: 2,
              maxReplicas: 10,
              bufferSize: 2,
              dynamicBuffer: { maxBufferUtilization: 80 },
            },
            { name: 'cloud', minReplicas: 0, maxReplicas: 20, bufferSize: 2 },
          ],
        },
      }),
    });
    expect(res.status).toBe(200);
    // Reads answer privately: the list shows the buffer as dynamic, not as the fixed 2.
    await h.slash('armada show dev duel');
    const answers = h.slack.ephemerals().filter((e) => e.user === ALICE.id);
    expect(shown(answers.at(-1))).toContain('`baremetal` min 2 · dynamic buffer · max 10');
    await h.slash('armada scale dev duel --type baremetal --min 3 --buffer 3');
    expect(shown(h.lastMessage())).toContain(
      'Dynamic buffer is on for region type baremetal: the platform sets its buffer size and will override the 3 you set',
    );
  });

  it('ends the follow-up of a type parked by Scale to Zero on what is known, not on a wait for servers', async () => {
    const res = await fetch(`${h.sim.url}/api/armada/v1/environments/dev/armadas/duel`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${h.sim.token}`, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ spec: { autoscaling: { scaleToZero: {} } } }),
    });
    expect(res.status).toBe(200);
    await h.slash('armada scale dev duel --type cloud --min 2 --max 30');
    const preview = h.lastMessage();
    await h.click(preview, CHANGE_ACTIONS.confirm);
    await waitForThreadReply(
      h,
      preview,
      /region type cloud: configuration synced to every site; the type is parked at zero by Scale to Zero/,
    );
  });

  it('writes nothing when the region type changed between preview and Confirm', async () => {
    await h.slash('armada scale dev duel --type cloud --max 30');
    const preview = h.lastMessage();
    const res = await fetch(`${h.sim.url}/api/armada/v1/environments/dev/armadas/duel`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${h.sim.token}`, 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'replace', path: '/spec/distribution/1/maxReplicas', value: 25 }]),
    });
    expect(res.status).toBe(200);
    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(entry('dev', 'duel', 'cloud')?.maxReplicas).toBe(25);
    expect(shown(current(h, preview))).toContain(
      'changed since the preview (was min 0, buffer 2, max 20, now min 0, buffer 2, max 25); nothing was changed',
    );
  });

  it('in prod waits for an approval', async () => {
    await h.slash('armada scale prod duel --type cloud --max 30');
    const preview = h.lastMessage();
    expect(preview.text).toMatch(/^Waiting for approval/);
    expect(buttonIds(preview)).toEqual([
      CHANGE_ACTIONS.approve,
      CHANGE_ACTIONS.reject,
      CHANGE_ACTIONS.cancel,
    ]);
    await h.click(preview, CHANGE_ACTIONS.approve, BOB);
    expect(entry('prod', 'duel', 'cloud')?.maxReplicas).toBe(30);
  });
});

describe('armadaset scale', () => {
  it('scales one region (its only type needs no --type) and the owned armada follows', async () => {
    await h.slash('armadaset scale dev arena --region us-west --max 9');
    const preview = h.lastMessage();
    expect(preview.text).toContain('Scale ArmadaSet arena in us-west, region type cloud (dev)');
    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(patches('dev', 'armadasets')).toBe(1);
    expect(h.sim.state.getArmadaSet('dev', 'arena')?.spec.armadas[1]?.distribution[0]?.maxReplicas).toBe(9);
    expect(entry('dev', 'arena-us-west', 'cloud')?.maxReplicas).toBe(9);
    // The other region is untouched.
    expect(entry('dev', 'arena-eu-central', 'baremetal')?.maxReplicas).toBe(12);
    await waitForThreadReply(
      h,
      preview,
      /ArmadaSet arena \(dev\), region type cloud: configuration synced to every site; how many game servers run is \*not verified\* \(an ArmadaSet status has no per-type counts\)/,
    );
  });

  it('needs --region, and names the regions there are for an unknown one', async () => {
    await h.slash('armadaset scale dev arena --max 9');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('`armadaset scale` needs `--region &lt;region&gt;`');
    await h.slash('armadaset scale dev arena --region ap-east --max 9');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'ArmadaSet arena has no region ap-east (its regions: eu-central, us-west)',
    );
  });
});
