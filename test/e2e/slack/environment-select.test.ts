/**
 * The environment in every form is a select of the configured environments
 * (HARBOR_ENVIRONMENTS, default dev,prod), preselected with the command's;
 * choosing another reloads the lists that depend on it, and the submission
 * uses the chosen one. Over the real Bolt app and the Slack stand-in.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { MODAL_RELOAD_ACTION } from '../../../src/slack/ids.js';
import { BREAK_GLASS_BLOCK, WHEN_BLOCK } from '../../../src/slack/modals/control-fields.js';
import { WHERE_BLOCKS } from '../../../src/slack/modals/index.js';
import { blockActionsPayload } from '../../../src/workspace/signing.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, inputIds, openedViewId, shown, viewOf } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

interface SelectBlock {
  type?: string;
  block_id?: string;
  element?: { type?: string; options?: { value: string }[]; initial_option?: { value: string } };
}

function select(viewId: string, blockId: string): SelectBlock['element'] {
  return (viewOf(h, viewId).blocks as SelectBlock[]).find((b) => b.block_id === blockId)?.element;
}

const options = (viewId: string, blockId: string) => select(viewId, blockId)?.options?.map((o) => o.value);

async function open(command: string): Promise<string> {
  await h.slash(command);
  return openedViewId(h);
}

/** Picks `given` in the view and fires the reload the environment select dispatches. */
async function choose(viewId: string, given: Record<string, string>): Promise<void> {
  const view = viewOf(h, viewId);
  await h.interact(
    blockActionsPayload({ actionId: MODAL_RELOAD_ACTION, view, values: answers(view, given), user: ALICE }),
  );
}

describe('the environment select', () => {
  it.each([
    ['vessel create dev', 'dev'],
    ['formation add dev lobby', 'dev'],
    ['formation remove dev lobby', 'dev'],
    ['region create prod', 'prod'],
    ['region scheduling dev eu-central', 'dev'],
  ])('%s: offers the configured environments, the command’s preselected', async (command, env) => {
    const viewId = await open(command);
    const environment = select(viewId, WHERE_BLOCKS.environment);
    expect(environment?.type).toBe('static_select');
    expect(environment?.options?.map((o) => o.value)).toEqual(['dev', 'prod']);
    expect(environment?.initial_option?.value).toBe(env);
  });

  it('creates the vessel in the environment chosen in the form, its regions reloaded for it', async () => {
    const viewId = await open('vessel create dev');
    await choose(viewId, { [WHERE_BLOCKS.environment]: 'prod', name: 'tourney-1' });
    expect(select(viewId, WHERE_BLOCKS.environment)?.initial_option?.value).toBe('prod');
    expect(shown(viewOf(h, viewId))).toContain('New standalone vessel in environment *prod*');
    // What the user typed before switching is still there.
    expect(JSON.stringify(viewOf(h, viewId).blocks)).toContain('tourney-1');
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), {
        [WHERE_BLOCKS.environment]: 'prod',
        name: 'tourney-1',
        region: 'eu-central',
        'container.image': 'game-server:1.2.0',
      }),
    );
    expect(res.body).toEqual({ response_action: 'clear' });
    expect(h.lastMessage().text).toContain('tourney-1 in prod');
  });

  it('lists the chosen environment’s formations and their vessels, and removes from there', async () => {
    const viewId = await open('formation remove dev lobby');
    expect(inputIds(viewOf(h, viewId))).toEqual([
      WHERE_BLOCKS.environment,
      'vessel',
      WHEN_BLOCK,
      BREAK_GLASS_BLOCK,
    ]);
    await choose(viewId, { [WHERE_BLOCKS.environment]: 'prod' });
    // lobby was named for dev; in prod the form asks which formation.
    expect(options(viewId, WHERE_BLOCKS.formation)).toEqual(['arena']);
    await choose(viewId, { [WHERE_BLOCKS.environment]: 'prod', [WHERE_BLOCKS.formation]: 'arena' });
    expect(options(viewId, 'vessel')).toEqual(['arena-1']);
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), {
        [WHERE_BLOCKS.environment]: 'prod',
        [WHERE_BLOCKS.formation]: 'arena',
        vessel: 'arena-1',
      }),
    );
    expect(res.body).toEqual({ response_action: 'clear' });
    expect(h.lastMessage().text).toBe(
      'Waiting for approval: destructive change: Remove vessel arena-1 from formation arena in prod',
    );
  });
});
