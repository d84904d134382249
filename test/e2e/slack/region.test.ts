/**
 * Regions end to end: show, and setting a region type's scheduling (preview
 * old → new, Confirm, the simulator's region changed); a strategy the API
 * does not know is a usage answer naming the argument, before any API call.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SCHEDULING_TAKES_EFFECT } from '../../../src/changes/scheduling-words.js';
import { CHANGE_ACTIONS, ROW_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttonIds, current, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const scheduling = (env: string, type: string) =>
  h.sim.state.getRegion(env, 'eu-central')?.spec.types.find((t) => t.name === type)?.template?.scheduling;
const regionWrites = () => h.sim.countRequests('PATCH', '/api/core/v1/environments/dev/regions');

describe('region show', () => {
  it('lists each type with its scheduling and locations, privately', async () => {
    await h.slash('region show dev eu-central');
    const answers = h.slack.ephemerals().filter((e) => e.user === ALICE.id);
    expect(answers).toHaveLength(1);
    const text = shown(answers[0]);
    expect(answers[0]?.text).toBe('Region eu-central in dev: 2 types');
    expect(text).toContain('*baremetal* · scheduling *Packed* · locations: `fra-bm-1`, `ams-bm-1`');
    expect(text).toContain('*cloud* · scheduling *Distributed*');
    expect(text).toContain('EU Central');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('names the region and environment when the region does not exist', async () => {
    await h.slash('region show dev us-east');
    expect(h.ephemeralTexts(ALICE)).toEqual([
      'No region `us-east` in environment `dev`. Did you mean `us-west`? Regions in dev: `eu-central`, `us-west`.',
    ]);
  });
});

describe('region scheduling', () => {
  it('previews old → new and changes the region type on Confirm', async () => {
    await h.slash('region scheduling dev eu-central baremetal Distributed');
    const preview = h.lastMessage();
    expect(preview.text).toContain('from Packed to Distributed');
    expect(shown(preview)).toContain('Packed → Distributed');
    expect(shown(preview)).toContain(SCHEDULING_TAKES_EFFECT);
    expect(buttonIds(preview)).toEqual([CHANGE_ACTIONS.confirm, CHANGE_ACTIONS.cancel]);
    expect(scheduling('dev', 'baremetal')).toBe('Packed');
    expect(regionWrites()).toBe(0);

    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(regionWrites()).toBe(1);
    expect(scheduling('dev', 'baremetal')).toBe('Distributed');
    // The other type is untouched.
    expect(scheduling('dev', 'cloud')).toBe('Distributed');
    const done = current(h, preview);
    expect(done.text).toContain('now uses Distributed scheduling (was Packed)');
    expect(buttonIds(done)).toEqual([ROW_ACTIONS.rollback]);
  });

  it('says there is nothing to change when the type already uses that strategy', async () => {
    await h.slash('region scheduling dev eu-central cloud Distributed');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(h.ephemeralTexts(ALICE).join('\n')).toContain('already uses Distributed scheduling');
  });

  it('names the types there are for an unknown type', async () => {
    await h.slash('region scheduling dev eu-central gpu Packed');
    expect(h.ephemeralTexts(ALICE).join('\n')).toContain('its types: baremetal, cloud');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('answers `Spread` with usage naming the argument, and calls no API', async () => {
    await h.slash('region scheduling dev eu-central baremetal Spread');
    const usage = h.ephemeralTexts(ALICE);
    expect(usage).toHaveLength(1);
    const text = shown(h.slack.ephemerals().at(-1));
    expect(usage[0]).toMatch(
      /^`&lt;Packed\|Distributed&gt;` must be `Packed` or `Distributed`, not `Spread`\./,
    );
    expect(text).toContain(
      '/harbor region scheduling &lt;env&gt; &lt;region&gt; &lt;type&gt; &lt;Packed|Distributed&gt;',
    );
    expect(h.sim.requests).toHaveLength(0);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(scheduling('dev', 'baremetal')).toBe('Packed');
  });
});
