/**
 * Forms reachable from the slash command for what used to need every
 * argument typed (or a release thread's button): `formation remove <env>
 * [<formation>]`, `region scheduling <env> [<region> [<type>]]` and `logs
 * <env>` open their forms, whose submissions post a preview or start a tail;
 * the help lists them.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { MODAL_CALLBACKS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL } from '../../../src/workspace/identity.js';
import type { StoredView } from '../../../src/workspace/stand-in.js';
import { type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, inputIds, openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** Runs `/harbor <text>` and returns the loaded form it opened. */
async function openForm(text: string): Promise<StoredView> {
  await h.slash(text);
  const view = h.slack.view(openedViewId(h));
  if (!view) throw new Error(`${text} opened no form`);
  return view;
}

async function submit(view: StoredView, given: Record<string, string>) {
  await h.submit(view.id, answers(view, given));
}

describe('forms from the slash command', () => {
  it('`formation remove <env> <formation>` opens the remove form; its submission posts the destructive preview', async () => {
    const form = await openForm('formation remove dev lobby');
    expect(form.callback_id).toBe(MODAL_CALLBACKS['formation.remove']);
    expect(inputIds(form)).toContain('vessel');
    await submit(form, { vessel: 'lobby-2' });
    expect(h.lastMessage().text).toMatch(/^Confirm this destructive change: Remove vessel lobby-2/);
  });

  it('`formation remove <env>` asks for the formation first', async () => {
    const form = await openForm('formation remove dev');
    expect(form.callback_id).toBe(MODAL_CALLBACKS['formation.remove']);
    expect(shown(form)).toContain('lobby');
    expect(inputIds(form)).toContain('where.formation');
  });

  it('`region scheduling <env> <region>` opens the scheduling form with the region chosen and its types listed', async () => {
    const form = await openForm('region scheduling dev eu-central');
    expect(form.callback_id).toBe(MODAL_CALLBACKS['region.scheduling']);
    expect(inputIds(form)).toEqual(expect.arrayContaining(['region', 'type', 'scheduling']));
    expect(shown(form)).toContain('baremetal (now Packed)');
    // The one scheduling sentence, as help and preview say it.
    expect(shown(form)).toContain('game servers spread across nodes based on available resources');
    await submit(form, { region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' });
    expect(h.lastMessage().text).toMatch(/from Packed to Distributed/);
  });

  it('`region scheduling <env>` opens the form listing the regions', async () => {
    const form = await openForm('region scheduling dev');
    expect(form.callback_id).toBe(MODAL_CALLBACKS['region.scheduling']);
    expect(shown(form)).toContain('eu-central');
  });

  it('`logs <env>` opens the "Tail logs" form; its submission starts a live tail in the channel', async () => {
    const form = await openForm('logs dev');
    expect(form.callback_id).toBe(MODAL_CALLBACKS['logs.follow']);
    expect(shown(form)).toContain('lobby-1');
    await submit(form, { vessel: 'lobby-1' });
    const [tail] = await h.running.core.store.listTails({ status: 'active' });
    expect(tail).toMatchObject({ env: 'dev', vessel: 'lobby-1', channel: TEST_CHANNEL.id });
  });

  it.each([
    ['formations', '/harbor formation remove <env> [<formation>]'],
    ['regions', '/harbor region scheduling <env> [<region>] [<type>]'],
    ['logs', '/harbor logs <env>'],
  ])('help %s shows the form `%s`', async (topic, form) => {
    await h.slash(`help ${topic}`);
    // Shown as Slack shows text: < and > escaped.
    const escaped = form.replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(shown(h.slack.ephemerals().at(-1))).toContain(escaped);
  });
});
