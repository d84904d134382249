/**
 * Type-ahead on pickers the rest of a form depends on (issue 19.2): an
 * environment with more armadas or formations than a static select can show
 * offers them as an external_select; what Slack's block_suggestion asks is
 * answered newest first, and the pick reloads the form as a static pick does
 * (the select dispatches its action under its own type-ahead id).
 */
import { afterEach, expect, it } from '@jest/globals';
import type { SimulatorData } from '../../../src/simulator/types.js';
import { suggestActionId } from '../../../src/slack/ids.js';
import { blockSuggestionPayload } from '../../../src/workspace/payloads.js';
import { blockActionsPayload } from '../../../src/workspace/signing.js';
import type { StoredView } from '../../../src/workspace/stand-in.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { openedViewId, viewOf } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

/** 110 more armadas in dev, copies of duel created a minute apart (fleet-109 newest). */
function manyArmadas(data: SimulatorData): void {
  const dev = data.environments.dev;
  const duel = dev?.armadas?.find((a) => a.metadata.name === 'duel');
  if (!dev?.armadas || !duel) throw new Error('the demo world has no duel armada in dev to copy');
  for (let i = 0; i < 110; i++) {
    const created = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    dev.armadas.push({
      ...structuredClone(duel),
      metadata: { ...duel.metadata, name: `fleet-${i}`, createdTimestamp: created },
    });
  }
}

/** 105 more formations in dev, copies of lobby with no vessels. */
function manyFormations(data: SimulatorData): void {
  const dev = data.environments.dev;
  const lobby = dev?.formations?.[0];
  if (!dev?.formations || !lobby) throw new Error('the demo world has no dev formation to copy');
  for (let i = 0; i < 105; i++) {
    const created = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    dev.formations.push({
      ...structuredClone(lobby),
      metadata: { ...lobby.metadata, name: `f-${i}`, createdTimestamp: created },
      spec: { ...structuredClone(lobby.spec), vessels: [] },
    });
  }
}

function blockOf(view: StoredView, blockId: string) {
  const block = (
    view.blocks as {
      block_id?: string;
      dispatch_action?: boolean;
      element?: { type: string; action_id: string };
    }[]
  ).find((b) => b.block_id === blockId);
  if (!block?.element) throw new Error(`no input ${blockId}`);
  return block as { dispatch_action?: boolean; element: { type: string; action_id: string } };
}

async function suggest(view: StoredView, blockId: string, query: string): Promise<string[]> {
  const res = await h.interact(
    blockSuggestionPayload({ view, actionId: blockOf(view, blockId).element.action_id, query }),
  );
  expect(res.status).toBe(200);
  return (res.body as { options: { value: string }[] }).options.map((o) => o.value);
}

/** Picks `value` in the type-ahead of `blockId` as Slack sends it: a block action under the select's id. */
async function pick(viewId: string, blockId: string, value: string): Promise<void> {
  const view = viewOf(h, viewId);
  const actionId = blockOf(view, blockId).element.action_id;
  const picked = {
    type: 'external_select',
    selected_option: { text: { type: 'plain_text' as const, text: value }, value },
  };
  const res = await h.interact(
    blockActionsPayload({ actionId, view, values: { [blockId]: { [actionId]: picked } }, user: ALICE }),
  );
  expect(res.status).toBe(200);
}

it('offers 111 armadas as a type-ahead, newest first, and the pick loads that armada’s containers', async () => {
  h = await startBotHarness({ world: manyArmadas });
  await h.slash('armada image dev');
  const viewId = openedViewId(h);
  const view = viewOf(h, viewId);
  const fleet = blockOf(view, 'fleet');
  expect(fleet.element).toMatchObject({
    type: 'external_select',
    action_id: suggestActionId('armadas', 'dev', true),
  });
  expect(fleet.dispatch_action).toBe(true);
  const found = await suggest(view, 'fleet', 'fleet-10');
  expect(found).toEqual([
    'fleet-109',
    'fleet-108',
    'fleet-107',
    'fleet-106',
    'fleet-105',
    'fleet-104',
    'fleet-103',
    'fleet-102',
    'fleet-101',
    'fleet-100',
    'fleet-10',
  ]);

  expect(JSON.stringify(view.blocks)).not.toContain('"value":"fleet-42"');
  await pick(viewId, 'fleet', 'fleet-42');
  const reloaded = viewOf(h, viewId);
  // The picked armada stays chosen and its one container is offered (duel's copy runs game-server).
  expect(JSON.stringify(reloaded.blocks)).toContain('"value":"fleet-42"');
  expect(JSON.stringify(reloaded.blocks)).toContain('game-server');
});

it('offers 106 formations as a type-ahead in the where step, and the pick lists that formation', async () => {
  h = await startBotHarness({ world: manyFormations });
  await h.slash('formation remove dev');
  const viewId = openedViewId(h);
  const view = viewOf(h, viewId);
  expect(blockOf(view, 'where.formation').element).toMatchObject({
    type: 'external_select',
    action_id: suggestActionId('formations', 'dev', true),
  });
  expect(await suggest(view, 'where.formation', 'f-10')).toEqual([
    'f-104',
    'f-103',
    'f-102',
    'f-101',
    'f-100',
    'f-10',
  ]);
  expect(await suggest(view, 'where.formation', 'lob')).toEqual(['lobby']);
});
