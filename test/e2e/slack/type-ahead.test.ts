/**
 * Type-ahead end to end (issue 19.2): a list too long for a static select
 * (images of a branch, vessels of an environment) is an external_select;
 * Slack's signed block_suggestion request is answered in its ack with the
 * matching entries, newest first, and what was picked submits like any
 * choice. Over HTTP, through the bot's one request URL.
 */
import { afterEach, expect, it } from '@jest/globals';
import { makeImage } from '../../../src/simulator/images.js';
import type { SimulatorData } from '../../../src/simulator/types.js';
import { suggestActionId } from '../../../src/slack/ids.js';
import { blockSuggestionPayload } from '../../../src/workspace/payloads.js';
import type { StoredView } from '../../../src/workspace/stand-in.js';
import { type BotHarness, startBotHarness } from './bot-harness.js';
import { openedViewId, shown, viewOf } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

/** 150 game-server tags in dev, so the promote form's image list is too long to show. */
function manyImages(data: SimulatorData): void {
  const dev = data.branches.dev ?? [];
  for (let i = 0; i < 150; i++) dev.push(makeImage('dev', 'game-server', `3.${i}.0`));
}

/** 120 vessels in dev, created a minute apart (v-119 newest). */
function manyVessels(data: SimulatorData): void {
  const dev = data.environments.dev;
  const template = dev?.vessels?.[0]?.spec.template;
  if (!dev || !template) throw new Error('the demo world has no dev vessel to copy');
  for (let i = 0; i < 120; i++) {
    const created = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    dev.vessels?.push({
      apiVersion: 'formation/v1',
      kind: 'Vessel',
      metadata: { name: `v-${i}`, environment: 'dev', createdTimestamp: created },
      spec: { region: 'eu-central', template },
    });
  }
}

/** The element of input block `blockId` of the view. */
function elementOf(
  view: StoredView,
  blockId: string,
): { type: string; action_id: string } & Record<string, unknown> {
  const block = (view.blocks as { block_id?: string; element?: { type: string; action_id: string } }[]).find(
    (b) => b.block_id === blockId,
  );
  if (!block?.element) throw new Error(`no input ${blockId}`);
  return block.element;
}

/** Asks for the options of a type-ahead as Slack does; returns the option values. */
async function suggest(view: StoredView, blockId: string, query: string): Promise<string[]> {
  const res = await h.interact(
    blockSuggestionPayload({ view, actionId: elementOf(view, blockId).action_id, query }),
  );
  expect(res.status).toBe(200);
  return (res.body as { options: { value: string }[] }).options.map((o) => o.value);
}

it('offers 154 images as a type-ahead, answers what was typed newest first, and promotes the pick', async () => {
  h = await startBotHarness({ world: manyImages });
  await h.slash('promote');
  const viewId = openedViewId(h);
  const view = viewOf(h, viewId);
  expect(elementOf(view, 'image')).toMatchObject({
    type: 'external_select',
    action_id: suggestActionId('images', 'dev'),
    min_query_length: 1,
  });
  const found = await suggest(view, 'image', '3.14');
  expect(found.slice(0, 3)).toEqual(['game-server:3.149.0', 'game-server:3.148.0', 'game-server:3.147.0']);
  expect(found).toContain('game-server:3.14.0');
  expect(found).not.toContain('game-server:1.2.0');
  expect(await suggest(view, 'image', 'nothing-like-this')).toEqual([]);

  const picked = {
    type: 'external_select',
    selected_option: {
      text: { type: 'plain_text' as const, text: 'game-server:3.148.0' },
      value: 'game-server:3.148.0',
    },
  };
  const res = await h.submit(viewId, {
    image: { [elementOf(view, 'image').action_id]: picked },
    targetBranch: {
      [elementOf(view, 'targetBranch').action_id]: {
        type: 'static_select',
        selected_option: { text: { type: 'plain_text', text: 'staging' }, value: 'staging' },
      },
    },
  });
  expect(res.status).toBe(200);
  expect(shown(h.lastMessage())).toContain('game-server:3.148.0');
});

it('offers 121 vessels of an environment in the tail form, newest first', async () => {
  h = await startBotHarness({ world: manyVessels });
  await h.slash('logs dev');
  const view = viewOf(h, openedViewId(h));
  expect(elementOf(view, 'vessel')).toMatchObject({
    type: 'external_select',
    action_id: suggestActionId('vessels', 'dev'),
  });
  const found = await suggest(view, 'vessel', 'v-1');
  // Created a minute apart: the newest first, then older ones; duel-1 (no match) is not offered.
  expect(found.slice(0, 3)).toEqual(['v-119', 'v-118', 'v-117']);
  expect(found).toHaveLength(31);
  expect(found).not.toContain('duel-1');
});

it('answers the same request delivered as Socket Mode delivers it: a parsed envelope acked with the options', async () => {
  h = await startBotHarness({ world: manyVessels });
  await h.slash('logs dev');
  const view = viewOf(h, openedViewId(h));
  const body = blockSuggestionPayload({ view, actionId: elementOf(view, 'vessel').action_id, query: 'v-11' });
  // SocketModeReceiver hands Bolt the envelope's payload and an ack that sends the response back on the socket.
  let acked: unknown;
  await h.running.bot.app.processEvent({
    body: body as unknown as Record<string, unknown>,
    ack: async (response) => {
      acked = response;
    },
  });
  const values = (acked as { options: { value: string }[] }).options.map((o) => o.value);
  expect(values).toEqual([
    'v-119',
    'v-118',
    'v-117',
    'v-116',
    'v-115',
    'v-114',
    'v-113',
    'v-112',
    'v-111',
    'v-110',
    'v-11',
  ]);
});
