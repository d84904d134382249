/**
 * Issue 18.13: the details of the forms. A missing choice asks to type only
 * where there is a field to type in; the only region is preselected; the name
 * placeholder never suggests a name that exists; a taken name is shown at its
 * field; quoted arguments stay quoted in the preview. Views are the JSON the
 * stand-in received; submissions are signed view_submission requests.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { StoredView } from '../../../src/workspace/stand-in.js';
import { type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, inputIds, openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
afterEach(async () => {
  await h.stop();
});

interface Block {
  type: string;
  block_id?: string;
  element?: {
    type: string;
    placeholder?: { text: string };
    initial_option?: { value: string };
  };
  elements?: { text?: string }[];
}

async function openForm(text: string): Promise<StoredView> {
  await h.slash(text);
  const view = h.slack.view(openedViewId(h));
  if (!view) throw new Error(`${text} opened no form`);
  return view;
}

const blocksOf = (view: StoredView | undefined) => (view?.blocks ?? []) as Block[];
const input = (view: StoredView | undefined, id: string) =>
  blocksOf(view).find((b) => b.type === 'input' && b.block_id === id);

async function errorsFor(view: StoredView, given: Record<string, string>): Promise<Record<string, string>> {
  const res = await h.submit(view.id, answers(view, given));
  const ack = res.body as unknown as { response_action?: string; errors?: Record<string, string> };
  expect(ack.response_action).toBe('errors');
  return ack.errors ?? {};
}

describe('modal details (issue 18.13)', () => {
  it('asks to choose, not to type, when the form has no field to type in', async () => {
    h = await startBotHarness();
    const form = await openForm('promote');
    expect(inputIds(form)).not.toContain('image.typed');
    const errors = await errorsFor(form, { sourceBranch: 'dev', targetBranch: 'prod' });
    expect(errors.image).toBe('Choose an image.');
  });

  it('preselects the only region of the environment', async () => {
    h = await startBotHarness({
      world: (data) => {
        const dev = data.environments.dev;
        if (!dev?.regions) return;
        dev.regions = dev.regions.slice(0, 1);
        // The ArmadaSet spans both regions; it goes with the second one.
        dev.armadaSets = [];
      },
    });
    const vessel = await openForm('vessel create dev');
    expect(input(vessel, 'region')?.element?.initial_option?.value).toBe('eu-central');
    const formation = await openForm('formation add dev lobby');
    expect(input(formation, 'region')?.element?.initial_option?.value).toBe('eu-central');
  });

  it('leaves the region unchosen when there are several', async () => {
    h = await startBotHarness();
    const vessel = await openForm('vessel create dev');
    expect(input(vessel, 'region')?.element?.initial_option).toBeUndefined();
  });

  it('suggests a vessel name that does not exist yet', async () => {
    h = await startBotHarness({
      world: (data) => {
        const lobby = data.environments.dev?.formations?.[0];
        lobby?.spec.vessels.push({ name: 'lobby-3', region: 'eu-central' });
        const vessels = data.environments.dev?.vessels;
        const duel = vessels?.[0];
        if (duel)
          vessels.push({ ...structuredClone(duel), metadata: { name: 'lobby-4', environment: 'dev' } });
      },
    });
    const formation = await openForm('formation add dev lobby');
    expect(input(formation, 'vessel')?.element?.placeholder?.text).toBe('lobby-5');
    const vessel = await openForm('vessel create dev');
    const placeholder = input(vessel, 'name')?.element?.placeholder?.text ?? '';
    expect(['duel-1', 'lobby-1', 'lobby-2', 'lobby-3', 'lobby-4']).not.toContain(placeholder);
    expect(placeholder).toMatch(/^[a-z]+-\d+$/);
  });

  it('closes the form on a good submission: the preview in the channel is the answer', async () => {
    h = await startBotHarness();
    const form = await openForm('promote');
    const res = await h.submit(
      form.id,
      answers(form, { sourceBranch: 'dev', image: 'game-server:1.2.0', targetBranch: 'staging' }),
    );
    expect(res.body).toEqual({ response_action: 'clear' });
    expect(h.lastMessage().text).toContain('Promote game-server:1.2.0 from dev to staging');
    // No "Preview posted" modal left to close.
    const updates = h.slack.callsTo('views.update').map((c) => JSON.stringify(c.body));
    expect(updates.join('\n')).not.toContain('Preview posted');
  });

  it('shows a taken vessel name under the name field of the form opened again, not as a banner on top', async () => {
    h = await startBotHarness();
    const form = await openForm('vessel create dev');
    const res = await h.submit(
      form.id,
      answers(form, { name: 'duel-1', region: 'eu-central', 'container.image': 'game-server:1.2.0' }),
    );
    expect(res.body).toEqual({ response_action: 'clear' });
    const reopened = openedViewId(h);
    expect(reopened).not.toBe(form.id);
    const view = h.slack.view(reopened);
    // What they typed is kept.
    expect(JSON.stringify(input(view, 'name'))).toContain('"initial_value":"duel-1"');
    const after = blocksOf(view);
    const name = after.findIndex((b) => b.type === 'input' && b.block_id === 'name');
    expect(name).toBeGreaterThanOrEqual(0);
    const below = after[name + 1];
    expect(below?.type).toBe('context');
    expect(JSON.stringify(below)).toContain('A vessel named duel-1 already exists in dev');
    // Nothing above the form repeats it.
    expect(JSON.stringify(after.slice(0, name))).not.toContain('already exists');
  });

  it('schedules from the When field, and shows a time it cannot take under When (issue 41)', async () => {
    h = await startBotHarness();
    const form = await openForm('vessel create dev');
    const fields = { name: 'lobby-9', region: 'eu-central', 'container.image': 'game-server:1.2.0' };
    await h.submit(form.id, answers(form, { ...fields, 'control.when': 'next tuesday' }));
    const reopened = openedViewId(h);
    expect(reopened).not.toBe(form.id);
    const after = blocksOf(h.slack.view(reopened));
    const when = after.findIndex((b) => b.type === 'input' && b.block_id === 'control.when');
    expect(JSON.stringify(after[when + 1])).toContain('`next tuesday` is not a time I can read');
    const again = h.slack.view(reopened) as StoredView;
    await h.submit(reopened, answers(again, { ...fields, 'control.when': 'in 2h' }));
    expect(h.lastMessage().text).toContain('(scheduled)');
    expect(JSON.stringify(h.lastMessage().blocks)).toContain('*Scheduled:* applies <!date^');
  });

  it('tells the person privately when the form cannot open again (its trigger expired)', async () => {
    h = await startBotHarness();
    const form = await openForm('vessel create dev');
    h.slack.refuseNext('views.open', 'expired_trigger_id');
    await h.submit(
      form.id,
      answers(form, { name: 'duel-1', region: 'eu-central', 'container.image': 'game-server:1.2.0' }),
    );
    expect(h.ephemeralTexts().at(-1)).toBe(
      'A vessel named duel-1 already exists in dev; pick another name. Nothing was changed.',
    );
  });

  it('keeps quoted arguments quoted in the preview', async () => {
    h = await startBotHarness();
    await h.slash(
      `formation add dev lobby lobby-3 eu-central --container game-server --args "--mode 'capture the flag'"`,
    );
    const preview = h.lastMessage();
    expect(shown(preview)).toContain('--mode \\"capture the flag\\"');
    expect(shown(preview)).not.toContain('--mode capture the flag');
  });
});
