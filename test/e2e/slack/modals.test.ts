/**
 * Modals end to end: the loading view opens before any hosting API call (the
 * trigger id expires in 3 s), then fills with choices; a submission posts a
 * public preview and the change goes through as from a typed command; bad
 * input is answered inline in the submission's ack and posts nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { internalImageName } from '../../../src/simulator/index.js';
import { CHANGE_ACTIONS, MODAL_RELOAD_ACTION } from '../../../src/slack/ids.js';
import { BREAK_GLASS_BLOCK, GUARD_BLOCK, WHEN_BLOCK } from '../../../src/slack/modals/control-fields.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import { blockActionsPayload, postSigned, slashCommandBody } from '../../../src/workspace/signing.js';
import { ALICE, BOB, type BotHarness, SIGNING_SECRET, startBotHarness } from './bot-harness.js';
import {
  answers,
  current,
  inputIds,
  openedViewId,
  shown,
  viewOf,
  waitForThreadReply,
} from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** Opens a modal by command and returns its id, as loaded. */
async function open(command: string): Promise<string> {
  await h.slash(command);
  return openedViewId(h);
}

/** Submits `given` on the loaded view; returns the ack body. */
async function submit(viewId: string, given: Record<string, string>): Promise<unknown> {
  const res = await h.submit(viewId, answers(viewOf(h, viewId), given));
  expect(res.status).toBe(200);
  return res.body;
}

const viewText = (viewId: string) => shown(viewOf(h, viewId));

describe('promote modal', () => {
  it('opens the loading view before any hosting API call, then fills it with choices', async () => {
    const body = slashCommandBody({
      text: 'promote',
      user_id: ALICE.id,
      user_name: ALICE.name,
      response_url: h.slack.responseUrl({ channel: TEST_CHANNEL.id, user: ALICE.id }),
      trigger_id: h.slack.triggerId(),
    });
    let apiCallsAtOpen = -1;
    const opened = h.slack
      .waitFor((c) => c.method === 'views.open')
      .then((call) => {
        // Runs as the stand-in answers views.open, before any other I/O is handled.
        apiCallsAtOpen = h.sim.requests.length;
        return call;
      });
    const res = await postSigned(h.eventsUrl, SIGNING_SECRET, body);
    expect(res.status).toBe(200);
    const call = await opened;
    await h.settle();

    expect(apiCallsAtOpen).toBe(0);
    expect(call.status).toBe(200);
    expect(JSON.stringify(call.body.view)).toContain('Loading');
    const viewId = openedViewId(h);
    const [loading, loaded, ...more] = h.slack.viewHistory(viewId);
    expect(more).toEqual([]);
    expect(loading && inputIds(loading)).toEqual([]);
    expect(loaded && inputIds(loaded)).toEqual([
      'sourceBranch',
      'image',
      'targetBranch',
      WHEN_BLOCK,
      GUARD_BLOCK,
      BREAK_GLASS_BLOCK,
    ]);
    expect(viewText(viewId)).toContain('game-server:1.2.0');
    expect(h.sim.countRequests('GET', '/api/container/v1/images/scopes/dev')).toBe(1);
  });

  it('reloads the image choices when the source branch changes', async () => {
    const viewId = await open('promote');
    const view = viewOf(h, viewId);
    await h.interact(
      blockActionsPayload({
        actionId: MODAL_RELOAD_ACTION,
        view,
        values: answers(view, { sourceBranch: 'prod' }),
        user: ALICE,
      }),
    );
    const images = (
      viewOf(h, viewId).blocks as { block_id?: string; element?: { options?: { value: string }[] } }[]
    )
      .find((b) => b.block_id === 'image')
      ?.element?.options?.map((o) => o.value);
    expect(images).toEqual(['game-server:1.0.0']);
  });

  it('a submission posts the preview; an SRE approves and the image is promoted', async () => {
    const viewId = await open('promote');
    const ack = await submit(viewId, { image: 'game-server:1.2.0', targetBranch: 'prod' });
    expect(ack).toEqual({ response_action: 'clear' });
    const preview = h.lastMessage();
    expect(preview.text).toMatch(/^Waiting for approval: .*game-server:1\.2\.0/);

    await h.click(preview, CHANGE_ACTIONS.approve, BOB);
    expect(h.sim.countRequests('POST', '/api/container/v1/imagepromotions')).toBe(1);
    expect(h.sim.state.listImages('prod').map((i) => `${i.spec.image}:${i.spec.tag}`)).toContain(
      'game-server:1.2.0',
    );
    expect(current(h, preview).text).toMatch(/^Done/);
  });
});

describe('vessel create modal', () => {
  it('creates the vessel after the preview is confirmed', async () => {
    const viewId = await open('vessel create dev');
    const ack = await submit(viewId, {
      name: 'tourney-1',
      region: 'eu-central',
      'container.image': 'game-server:1.2.0',
      'container.args': '--max-players 16',
    });
    expect(ack).toEqual({ response_action: 'clear' });
    const preview = h.lastMessage();
    expect(preview.text).toContain('Create vessel tourney-1 in dev');
    expect(h.sim.state.getVessel('dev', 'tourney-1')).toBeUndefined();

    await h.click(preview, CHANGE_ACTIONS.confirm);
    const vessel = h.sim.state.getVessel('dev', 'tourney-1');
    const container = vessel?.spec.template.spec.containers[0];
    expect(container?.image).toBe(internalImageName('dev', 'game-server', '1.2.0'));
    expect(container?.args).toEqual(['--max-players', '16']);
    expect(container?.ports).toEqual([
      { name: 'game', containerPort: 7777, protocol: 'UDP', policy: 'Dynamic' },
    ]);
    await waitForThreadReply(h, preview, /tourney-1 is placed/);
  });

  it('answers missing and malformed fields inline in the ack, and posts nothing', async () => {
    const viewId = await open('vessel create dev');
    const before = h.sim.requests.length;
    const ack = (await submit(viewId, {
      region: 'eu-central',
      'container.image': 'game-server:1.2.0',
      'container.ports': 'game:seventy/UDP',
    })) as { response_action: string; errors: Record<string, string> };
    expect(ack.response_action).toBe('errors');
    expect(Object.keys(ack.errors).sort()).toEqual(['container.ports', 'name']);
    expect(ack.errors.name).toContain('Give the vessel a name');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(h.slack.callsTo('chat.postEphemeral')).toHaveLength(0);
    expect(h.sim.requests.length).toBe(before);
  });

  it('places the engine’s own validation problems on the right field', async () => {
    const viewId = await open('vessel create dev');
    const ack = (await submit(viewId, {
      name: 'tourney-1',
      region: 'eu-central',
      'container.image': 'game-server:1.2.0',
      'container.cpu': 'lots',
    })) as { response_action: string; errors: Record<string, string> };
    expect(ack.response_action).toBe('errors');
    expect(Object.keys(ack.errors)).toEqual(['container.cpu']);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });
});

describe('region create modal', () => {
  it('creates the region with its types after the preview is confirmed', async () => {
    const viewId = await open('region create dev');
    const ack = await submit(viewId, {
      name: 'eu-west',
      displayName: 'EU West',
      'type.0.name': 'baremetal',
      'type.0.locations': 'par-bm-1, par-bm-2',
      'type.0.scheduling': 'Distributed',
    });
    expect(ack).toEqual({ response_action: 'clear' });
    const preview = h.lastMessage();
    expect(preview.text).toContain('eu-west');
    expect(h.sim.state.getRegion('dev', 'eu-west')).toBeUndefined();

    await h.click(preview, CHANGE_ACTIONS.confirm);
    const region = h.sim.state.getRegion('dev', 'eu-west');
    expect(region?.spec.displayName).toBe('EU West');
    expect(region?.spec.types).toEqual([
      { name: 'baremetal', locations: ['par-bm-1', 'par-bm-2'], template: { scheduling: 'Distributed' } },
    ]);
    expect(current(h, preview).text).toMatch(/^Done/);
  });
});

describe('formation add modal', () => {
  it('adds the vessel with the container override chosen in the form', async () => {
    const viewId = await open('formation add dev lobby');
    const ack = await submit(viewId, {
      vessel: 'lobby-3',
      region: 'eu-central',
      'override.0.image.game-server': 'game-server:1.2.0',
      'override.0.args.game-server': '--mode ranked',
    });
    expect(ack).toEqual({ response_action: 'clear' });
    const preview = h.lastMessage();
    expect(shown(preview)).toContain('game-server:1.2.0');

    await h.click(preview, CHANGE_ACTIONS.confirm);
    const added = h.sim.state.getFormation('dev', 'lobby')?.spec.vessels.find((v) => v.name === 'lobby-3');
    expect(added?.override?.containers).toEqual([
      {
        name: 'game-server',
        image: internalImageName('dev', 'game-server', '1.2.0'),
        args: ['--mode', 'ranked'],
      },
    ]);
    await waitForThreadReply(h, preview, /lobby-3 is placed/);
  });

  it('keeps the template when the form is left as is: no override', async () => {
    const viewId = await open('formation add dev lobby');
    await submit(viewId, { vessel: 'lobby-3', region: 'eu-central' });
    await h.click(h.lastMessage(), CHANGE_ACTIONS.confirm);
    const added = h.sim.state.getFormation('dev', 'lobby')?.spec.vessels.find((v) => v.name === 'lobby-3');
    expect(added).toEqual({ name: 'lobby-3', region: 'eu-central' });
    await waitForThreadReply(h, h.lastMessage(), /lobby-3 is placed/);
  });
});
