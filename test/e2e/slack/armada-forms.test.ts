/**
 * The scale and image forms of Armadas and ArmadaSets over the real Bolt app
 * and the Slack stand-in: `armada scale <env> [<name>]` (and the others)
 * without values open a form whose pickers come from the API (fleets, region
 * types with their values now, containers, images of the container's branch);
 * the submission previews the change as the command would; what the operation
 * refuses (a broken replica rule, an image:tag the branch lacks) shows under
 * the field. The environment select lists the API's environments, or the
 * configured ones when the API refuses to list them.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CHANGE_ACTIONS, MODAL_RELOAD_ACTION } from '../../../src/slack/ids.js';
import { BREAK_GLASS_BLOCK, WHEN_BLOCK } from '../../../src/slack/modals/control-fields.js';
import { FLEET_IMAGE_BLOCKS, FLEET_SCALE_BLOCKS, WHERE_BLOCKS } from '../../../src/slack/modals/index.js';
import { blockActionsPayload } from '../../../src/workspace/signing.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, inputIds, openedViewId, viewOf, waitForThreadReply } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

interface InputBlock {
  type?: string;
  block_id?: string;
  element?: { options?: { value: string }[]; initial_option?: { value: string }; initial_value?: string };
}

const element = (viewId: string, blockId: string) =>
  (viewOf(h, viewId).blocks as InputBlock[]).find((b) => b.block_id === blockId)?.element;
const options = (viewId: string, blockId: string) => element(viewId, blockId)?.options?.map((o) => o.value);

async function open(command: string): Promise<string> {
  await h.slash(command);
  await h.settle();
  return openedViewId(h);
}

async function choose(viewId: string, given: Record<string, string>): Promise<void> {
  const view = viewOf(h, viewId);
  await h.interact(
    blockActionsPayload({ actionId: MODAL_RELOAD_ACTION, view, values: answers(view, given), user: ALICE }),
  );
  await h.settle();
}

const S = FLEET_SCALE_BLOCKS;
const I = FLEET_IMAGE_BLOCKS;

describe('the armada scale form', () => {
  it('offers the armadas and region types with their values now, and previews the change', async () => {
    const viewId = await open('armada scale dev');
    expect(options(viewId, S.fleet)).toEqual(['duel', 'arena-eu-central', 'arena-us-west'].sort());
    await choose(viewId, { [WHERE_BLOCKS.environment]: 'dev', [S.fleet]: 'duel' });
    expect(options(viewId, S.type)).toEqual(['baremetal', 'cloud']);
    await choose(viewId, { [WHERE_BLOCKS.environment]: 'dev', [S.fleet]: 'duel', [S.type]: 'cloud' });
    expect(element(viewId, S.max)?.initial_value).toBe('20');
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), {
        [WHERE_BLOCKS.environment]: 'dev',
        [S.fleet]: 'duel',
        [S.type]: 'cloud',
        [S.min]: '0',
        [S.buffer]: '2',
        [S.max]: '30',
      }),
    );
    expect(res.body).toEqual({ response_action: 'clear' });
    expect(h.lastMessage().text).toContain('Scale armada duel, region type cloud (dev)');
    expect(h.lastMessage().text).toContain('max 20 → min 0, buffer 2, max 30');
  });

  it('shows a broken replica rule under the field, before any preview', async () => {
    const viewId = await open('armada scale dev duel');
    await choose(viewId, { [WHERE_BLOCKS.environment]: 'dev', [S.fleet]: 'duel', [S.type]: 'cloud' });
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), {
        [WHERE_BLOCKS.environment]: 'dev',
        [S.fleet]: 'duel',
        [S.type]: 'cloud',
        [S.min]: '5',
        [S.buffer]: '1',
        [S.max]: '3',
      }),
    );
    expect(res.body).toMatchObject({ response_action: 'errors' });
    expect(JSON.stringify(res.body)).toContain('max (3) must be >= min (5)');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('states the platform limit under the field, in the words of the field, as the flags do', async () => {
    const viewId = await open('armada scale dev duel');
    await choose(viewId, { [WHERE_BLOCKS.environment]: 'dev', [S.fleet]: 'duel', [S.type]: 'cloud' });
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), {
        [WHERE_BLOCKS.environment]: 'dev',
        [S.fleet]: 'duel',
        [S.type]: 'cloud',
        [S.min]: '0',
        [S.buffer]: '2',
        [S.max]: '99999999999',
      }),
    );
    const shownErrors = JSON.stringify(Object.values((res.body as { errors?: object }).errors ?? {}));
    expect(shownErrors).toContain('max must be a whole number from 0 to 2147483647');
    expect(shownErrors).not.toMatch(/--max|maxReplicas/);
    await h.slash('armada scale dev duel --type cloud --max 99999999999');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      '`--max`: max must be a whole number from 0 to 2147483647, not `99999999999`.',
    );
    // A million is within the limit: it previews (the docs call max a budget guard, so it is the person's call).
    await h.slash('armada scale dev duel --type cloud --max 1000000');
    expect(h.lastMessage().text).toContain('max 20 → min 0, buffer 2, max 1000000');
  });

  it("asks for a count in the form's words when every count is left empty, as the command asks in flags", async () => {
    const viewId = await open('armada scale dev duel');
    await choose(viewId, { [WHERE_BLOCKS.environment]: 'dev', [S.fleet]: 'duel', [S.type]: 'cloud' });
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), {
        [WHERE_BLOCKS.environment]: 'dev',
        [S.fleet]: 'duel',
        [S.type]: 'cloud',
        [S.min]: '',
        [S.buffer]: '',
        [S.max]: '',
      }),
    );
    expect(res.body).toMatchObject({ response_action: 'errors' });
    const errors = (res.body as { errors: Record<string, string> }).errors;
    expect(errors[S.max]).toBe('fill in at least one of min, buffer and max, e.g. max 20');
    expect(JSON.stringify(errors)).not.toContain('--');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    await h.slash('armada scale dev duel --type cloud');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('needs at least one of `--min`, `--max` and `--buffer`');
  });

  it('refuses an armada its ArmadaSet owns before the form opens, as the typed command does', async () => {
    await h.slash('armada scale dev arena-us-west');
    await h.settle();
    expect(h.slack.callsTo('views.open')).toHaveLength(0);
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      'Armada arena-us-west is owned by ArmadaSet arena, which puts its replicas back: scale the ArmadaSet instead',
    );
  });

  it('for an ArmadaSet asks the region, then its types, and previews the change', async () => {
    const viewId = await open('armadaset scale dev arena');
    expect(inputIds(viewOf(h, viewId))).toEqual([
      WHERE_BLOCKS.environment,
      S.fleet,
      S.region,
      S.type,
      S.min,
      S.buffer,
      S.max,
      WHEN_BLOCK,
      BREAK_GLASS_BLOCK,
    ]);
    expect(options(viewId, S.region)).toEqual(['eu-central', 'us-west']);
    expect(options(viewId, S.type)).toEqual(['baremetal']);
    await choose(viewId, { [WHERE_BLOCKS.environment]: 'dev', [S.fleet]: 'arena', [S.region]: 'us-west' });
    expect(options(viewId, S.type)).toEqual(['cloud']);
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), {
        [WHERE_BLOCKS.environment]: 'dev',
        [S.fleet]: 'arena',
        [S.region]: 'us-west',
        [S.type]: 'cloud',
        [S.max]: '9',
      }),
    );
    expect(res.body).toEqual({ response_action: 'clear' });
    await h.settle();
    expect(h.lastMessage().text).toContain('Scale ArmadaSet arena in us-west, region type cloud (dev)');
  });

  it('puts a region type the ArmadaSet region lacks on top of the form, nothing posted', async () => {
    const viewId = await open('armadaset scale dev arena');
    // baremetal was listed for eu-central; us-west has only cloud.
    await h.submit(
      viewId,
      answers(viewOf(h, viewId), {
        [WHERE_BLOCKS.environment]: 'dev',
        [S.fleet]: 'arena',
        [S.region]: 'us-west',
        [S.type]: 'baremetal',
        [S.max]: '9',
      }),
    );
    await h.settle();
    expect(JSON.stringify(h.slack.callsTo('views.update').at(-1)?.body)).toContain(
      'ArmadaSet arena in us-west has no region type baremetal (its types: cloud).',
    );
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });
});

describe('the armada image form', () => {
  it('offers the images of the container’s branch and rolls out what was chosen', async () => {
    const viewId = await open('armada image dev duel');
    expect(options(viewId, I.container)).toEqual(['game-server']);
    expect(options(viewId, I.image)).toEqual([
      'game-server:1.2.0',
      'game-server:1.1.0',
      'game-server:1.0.0',
      'sidecar-metrics:0.3.0',
    ]);
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), {
        [WHERE_BLOCKS.environment]: 'dev',
        [I.fleet]: 'duel',
        [I.container]: 'game-server',
        [I.image]: 'game-server:1.1.0',
      }),
    );
    expect(res.body).toEqual({ response_action: 'clear' });
    const preview = h.lastMessage();
    expect(preview.text).toContain('game-server:1.2.0 → game-server:1.1.0');
    await h.click(preview, CHANGE_ACTIONS.confirm);
    await waitForThreadReply(
      h,
      preview,
      /Armada duel \(dev\): every game server runs game-server:1.1.0: Synced/,
    );
  });

  it('says so when the chosen image:tag is no longer in the branch (a stale list)', async () => {
    const viewId = await open('armadaset image prod arena');
    const values = answers(viewOf(h, viewId), {
      [WHERE_BLOCKS.environment]: 'prod',
      [I.fleet]: 'arena',
      [I.container]: 'game-server',
      [I.image]: 'game-server:1.0.0',
    });
    // The list the form showed had a build the branch no longer holds.
    const image = Object.values(values[I.image] ?? {})[0];
    if (image?.selected_option) image.selected_option.value = 'game-server:9.9.9';
    await h.submit(viewId, values);
    await h.settle();
    expect(JSON.stringify(h.slack.callsTo('views.update').at(-1)?.body)).toContain(
      'Branch prod has no game-server:9.9.9; it has game-server:1.0.0. Promote 9.9.9 into prod first',
    );
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });
});

describe('the environment select of the fleet forms', () => {
  it('falls back to the configured environments when the API refuses to list them', async () => {
    h.sim.setFaults([{ method: 'GET', path: '/api/core/v1/environments', status: 403 }]);
    const viewId = await open('armada image prod');
    expect(options(viewId, WHERE_BLOCKS.environment)).toEqual(['dev', 'prod']);
    expect(options(viewId, I.fleet)).toEqual(['arena-eu-central', 'arena-us-west', 'duel'].sort());
  });
});
