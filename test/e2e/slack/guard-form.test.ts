/**
 * The Guard field of the forms that roll out a build (issue 42), over the real
 * Bolt app and the Slack stand-in with signed requests: a window gives the
 * preview the guard line the command's `--guard` gives; `none` leaves an
 * optional guard off; `none` where the rule does not make it optional comes
 * back beside the field with the policy's reason, in the form's words; a value
 * that is no window is refused beside the field in the submission's ack.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { MODAL_RELOAD_ACTION } from '../../../src/slack/ids.js';
import { GUARD_BLOCK } from '../../../src/slack/modals/control-fields.js';
import { FLEET_IMAGE_BLOCKS, PROMOTE_BLOCKS, WHERE_BLOCKS } from '../../../src/slack/modals/index.js';
import { blockActionsPayload } from '../../../src/workspace/signing.js';
import type { StoredMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, inputIds, openedViewId, viewOf } from './harness-extras.js';

const POLICY = `
version: 1
rules:
  - name: reads
    operations: [images.list, vessels.list, formation.show, region.show, sites.list, logs.read, armadas.list, armada.show, armadaset.show]
  - name: dev-rollouts
    operations: [armada.image]
    target: { environment: dev }
    approval: { mode: confirm }
    guard: { within: 15m }
  - name: dev-sets
    operations: [armadaset.image]
    target: { environment: dev }
    approval: { mode: confirm }
    guard: { within: 10m, optional: true }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`;

const I = FLEET_IMAGE_BLOCKS;

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness({ policy: POLICY });
});
afterEach(async () => {
  await h.stop();
});

async function open(command: string): Promise<string> {
  await h.slash(command);
  await h.settle();
  return openedViewId(h);
}

/** The guard lines a message shows (the preview's notes), as written. */
function guardLines(message: StoredMessage): string[] {
  return JSON.stringify(message.blocks ?? []).match(/Guarded: [^"\\]*/g) ?? [];
}

/** The form's fields for rolling duel (dev) out to game-server:1.1.0, with `guard` typed in Guard. */
const duelTo110 = (guard: string) => ({
  [WHERE_BLOCKS.environment]: 'dev',
  [I.fleet]: 'duel',
  [I.container]: 'game-server',
  [I.image]: 'game-server:1.1.0',
  [GUARD_BLOCK]: guard,
});

describe('the Guard field of the rollout forms', () => {
  it('is on the promote and image forms, not on the others', async () => {
    expect(inputIds(viewOf(h, await open('promote')))).toContain(GUARD_BLOCK);
    expect(inputIds(viewOf(h, await open('armada image dev duel')))).toContain(GUARD_BLOCK);
    expect(inputIds(viewOf(h, await open('armadaset image dev arena')))).toContain(GUARD_BLOCK);
    expect(inputIds(viewOf(h, await open('armada scale dev duel')))).not.toContain(GUARD_BLOCK);
  });

  it('asks for a guard of the window typed: the preview says it as `--guard` does', async () => {
    const viewId = await open('armada image dev duel');
    const res = await h.submit(viewId, answers(viewOf(h, viewId), duelTo110('30m')));
    expect(res.body).toEqual({ response_action: 'clear' });
    await h.settle();
    const fromForm = h.lastMessage();
    expect(guardLines(fromForm)).toEqual([
      'Guarded: rolled back automatically if its servers do not become Ready, or it goes Degraded, within 30 min (policy rule dev-rollouts).',
    ]);
    await h.slash('armada image dev duel game-server:1.1.0 --guard 30m');
    const fromCommand = h.lastMessage();
    expect(fromCommand.ts).not.toBe(fromForm.ts);
    expect(guardLines(fromCommand)).toEqual(guardLines(fromForm));
  });

  it('keeps what was typed in Guard when a choice reloads the form', async () => {
    const viewId = await open('armada image dev duel');
    const view = viewOf(h, viewId);
    await h.interact(
      blockActionsPayload({
        actionId: MODAL_RELOAD_ACTION,
        view,
        values: answers(view, { [WHERE_BLOCKS.environment]: 'dev', [I.fleet]: 'duel', [GUARD_BLOCK]: '45m' }),
        user: ALICE,
      }),
    );
    await h.settle();
    const guard = (
      viewOf(h, viewId).blocks as { block_id?: string; element?: { initial_value?: string } }[]
    ).find((b) => b.block_id === GUARD_BLOCK);
    expect(guard?.element?.initial_value).toBe('45m');
  });

  it('declines an optional guard with none: the preview has no guard line', async () => {
    const viewId = await open('armadaset image dev arena');
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), {
        [WHERE_BLOCKS.environment]: 'dev',
        [I.fleet]: 'arena',
        [I.container]: 'game-server',
        [I.image]: 'game-server:1.2.0',
        [GUARD_BLOCK]: 'none',
      }),
    );
    expect(res.body).toEqual({ response_action: 'clear' });
    await h.settle();
    const preview = h.lastMessage();
    expect(preview.text).toContain('ArmadaSet arena');
    expect(guardLines(preview)).toEqual([]);
  });

  it('shows the policy’s refusal of none beside Guard, in the form’s words, and posts nothing', async () => {
    const viewId = await open('armada image dev duel');
    const res = await h.submit(viewId, answers(viewOf(h, viewId), duelTo110('none')));
    expect(res.body).toEqual({ response_action: 'clear' });
    await h.settle();
    const reopened = openedViewId(h);
    expect(reopened).not.toBe(viewId);
    const blocks = viewOf(h, reopened).blocks as { type?: string; block_id?: string; element?: object }[];
    const at = blocks.findIndex((b) => b.type === 'input' && b.block_id === GUARD_BLOCK);
    // The field keeps what was typed, and the reason is right under it.
    expect(blocks[at]?.element).toMatchObject({ initial_value: 'none' });
    const below = JSON.stringify(blocks[at + 1]);
    expect(below).toContain(
      'Guard `none` is refused: the policy rule dev-rollouts guards every such rollout for 15m and does not make it optional. Leave Guard empty for the rule',
    );
    expect(JSON.stringify(blocks)).not.toContain('--no-guard');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    // The command refuses the same, in its own words.
    await h.slash('armada image dev duel game-server:1.1.0 --no-guard');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      '`--no-guard` is refused: the policy rule dev-rollouts guards every such rollout for 15m and does not make it optional.',
    );
  });

  it('shows a guard asked where the rule sets none beside Guard, naming the rule', async () => {
    const viewId = await open('promote');
    const res = await h.submit(
      viewId,
      answers(viewOf(h, viewId), {
        [PROMOTE_BLOCKS.source]: 'dev',
        [PROMOTE_BLOCKS.image]: 'game-server:1.2.0',
        [PROMOTE_BLOCKS.target]: 'prod',
        [GUARD_BLOCK]: '20m',
      }),
    );
    expect(res.body).toEqual({ response_action: 'clear' });
    await h.settle();
    const blocks = viewOf(h, openedViewId(h)).blocks as { type?: string; block_id?: string }[];
    const at = blocks.findIndex((b) => b.type === 'input' && b.block_id === GUARD_BLOCK);
    expect(JSON.stringify(blocks[at + 1])).toContain(
      'Guard is refused: the policy rule everything-else sets no guard for this rollout, so there is none to ask for. Leave Guard empty',
    );
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('refuses a value that is no window beside the field in the ack, before anything is asked', async () => {
    const viewId = await open('armada image dev duel');
    for (const [typed, said] of [
      ['15 parsecs', 'Guard: expected a window like 15m or 1h (at most 24h), or none; got "15 parsecs".'],
      ['2d', 'Guard: expected at most 24h (a guard watches one rollout), got "2d".'],
    ] as const) {
      const res = await h.submit(viewId, answers(viewOf(h, viewId), duelTo110(typed)));
      expect(res.body).toEqual({ response_action: 'errors', errors: { [GUARD_BLOCK]: said } });
    }
    await h.settle();
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });
});
