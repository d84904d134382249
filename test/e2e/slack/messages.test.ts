/**
 * What the bot says, end to end (issue 13): versions as image:tag with
 * internal names only as detail, "not found" answers that list what exists,
 * one explanation of scheduling everywhere, and copy that reads right
 * (articles, plurals, user text as code).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SCHEDULING_EFFECT, SCHEDULING_TAKES_EFFECT } from '../../../src/changes/scheduling-words.js';
import { FORM_IDS, getForm } from '../../../src/slack/grammar/forms.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { answers, current, openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** The last private answer ALICE received, as one searchable string. */
const lastAnswer = () =>
  shown(
    h.slack
      .ephemerals()
      .filter((e) => e.user === ALICE.id)
      .at(-1),
  );

/** The mrkdwn of every block except context blocks (where secondary detail lives). */
function primaryText(message: { blocks?: readonly unknown[] }): string {
  return JSON.stringify((message.blocks ?? []).filter((b) => (b as { type?: string }).type !== 'context'));
}

describe('versions as image:tag (point 3)', () => {
  it('formation show names the template image as image:tag, the internal name only as detail', async () => {
    await h.slash('formation show dev lobby');
    const answer = lastAnswer();
    expect(answer).toContain('image `game-server:1.1.0` from branch `dev`');
    expect(answer).toMatch(/_\(internal `img-[0-9a-f]+`\)_/);
  });

  it('vessels lists each vessel with its image:tag', async () => {
    await h.slash('vessels dev');
    expect(lastAnswer()).toContain('*lobby-1* · region `eu-central` · Running · `game-server:1.1.0`');
    expect(lastAnswer()).toContain('*duel-1* · region `eu-central` · Running · `game-server:1.2.0`');
  });

  it('previews and results lead with image:tag; internal names and promotion ids are small print', async () => {
    await h.slash('promote game-server:1.2.0 from dev to staging');
    const preview = h.lastMessage();
    expect(primaryText(preview)).toContain('game-server:1.2.0');
    expect(primaryText(preview)).not.toMatch(/img-[0-9a-f]{8}/);
    expect(shown(preview)).toMatch(/Internal image name: `img-[0-9a-f]{8}`/);

    await h.click(preview, CHANGE_ACTIONS.confirm);
    const done = current(h, preview);
    expect(done.text).toMatch(/^Done/);
    expect(primaryText(done)).toContain('game-server:1.2.0');
    expect(primaryText(done)).not.toMatch(/img-[0-9a-f]{8}|[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('a vessel delete preview shows the containers by image:tag', async () => {
    await h.slash('vessel delete dev duel-1');
    expect(shown(h.lastMessage())).toContain('game-server: game-server:1.2.0');
  });
});

describe('"not found" leads somewhere (point 5)', () => {
  it.each([
    ['vessels Dve', 'No environment `dve`. Did you mean `dev`? Known environments: `dev`, `prod`.'],
    ['formation show dev LOBBY', 'No formation `LOBBY` in environment `dev`. Did you mean `lobby`?'],
    ['formation show dev lobbby', 'Did you mean `lobby`? Formations in dev: `lobby`.'],
    ['formation show Dve lobby', 'No environment `dve`. Did you mean `dev`?'],
    ['region show dev eu-centrl', 'Did you mean `eu-central`? Regions in dev: `eu-central`, `us-west`.'],
    ['vessel delete dev lobby-9', 'Vessels in dev: `duel-1`, `lobby-1`, `lobby-2`.'],
    ['logs dev lobby-9', 'No vessel `lobby-9` in environment `dev`. Did you mean `lobby-1`?'],
    ['formation remove dev lobbby lobby-2', 'Did you mean `lobby`?'],
    ['region scheduling dev eu-centrl baremetal Packed', 'Did you mean `eu-central`?'],
    [
      'images stagng',
      'No branch `stagng`. Did you mean `staging`? Branches: `dev` (Development), `prod` (Production), `staging`.',
    ],
  ])('`%s` answers with what exists', async (command, expected) => {
    await h.slash(command);
    expect(lastAnswer()).toContain(expected);
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });
});

describe('one explanation of scheduling (point 8)', () => {
  it('the help, the region form and the preview use the same sentences', async () => {
    await h.slash('help regions');
    const help = lastAnswer();
    await h.slash('region create dev');
    const form = shown(h.slack.view(openedViewId(h)));
    await h.slash('region scheduling prod eu-central baremetal Distributed');
    const preview = shown(h.lastMessage());
    for (const text of [help, form]) {
      expect(text).toContain(SCHEDULING_EFFECT.Packed);
      expect(text).toContain(SCHEDULING_EFFECT.Distributed);
    }
    expect(help).toContain(SCHEDULING_TAKES_EFFECT);
    expect(preview).toContain(SCHEDULING_EFFECT.Distributed);
    expect(preview).toContain(SCHEDULING_TAKES_EFFECT);
  });
});

describe('copy (point 10)', () => {
  it('select placeholders use the singular with its article', async () => {
    await h.slash('promote');
    const promote = shown(h.slack.view(openedViewId(h)));
    expect(promote).toContain('Choose a branch');
    expect(promote).toContain('Choose an image');
    expect(promote).not.toMatch(/Choose branche|Choose images/);
    await h.slash('region create dev');
    expect(shown(h.slack.view(openedViewId(h)))).toContain('Choose a strategy');
  });

  it('user arguments are inline code, so mrkdwn in them stays literal', async () => {
    await h.slash(
      'formation add dev lobby lobby-3 eu-central --container game-server --args "--map _de_dust_ *fast*"',
    );
    expect(shown(h.lastMessage())).toContain('args `--map _de_dust_ *fast*`');
  });

  it('names no internal request fields', async () => {
    await h.slash('promote game-server:1.2.0 from dev to nowhere');
    expect(lastAnswer()).not.toMatch(/targetBranch|sourceBranch/);
    expect(lastAnswer()).toContain('No branch `nowhere` (the target branch).');
  });
});

describe('modals keep the user’s work (point 6)', () => {
  it('returns every field error of a vessel form at once, the operation’s checks included', async () => {
    await h.slash('vessel create dev');
    const viewId = openedViewId(h);
    const view = h.slack.view(viewId);
    if (!view) throw new Error('no view');
    const res = await h.submit(
      viewId,
      answers(view, { region: 'eu-central', 'container.ports': 'game:seventy/UDP', 'container.cpu': 'lots' }),
    );
    const ack = res.body as { response_action: string; errors: Record<string, string> };
    expect(ack.response_action).toBe('errors');
    expect(Object.keys(ack.errors).sort()).toEqual([
      'container.cpu',
      'container.image',
      'container.ports',
      'name',
    ]);
  });

  it('a name the API already has opens the filled form again, with the problem under the name', async () => {
    await h.slash('vessel create dev');
    const viewId = openedViewId(h);
    const view = h.slack.view(viewId);
    if (!view) throw new Error('no view');
    await h.submit(
      viewId,
      answers(view, { name: 'lobby-1', region: 'eu-central', 'container.image': 'game-server:1.2.0' }),
    );
    // The submission closed the form; its trigger opened it again.
    const after = h.slack.view(openedViewId(h));
    if (!after) throw new Error('the form is gone');
    const text = shown(after);
    expect(text).toContain('A vessel named lobby-1 already exists');
    // The form is back, as filled: submit button, and the name the user typed.
    expect((after as { submit?: unknown }).submit).toEqual({ type: 'plain_text', text: 'Preview' });
    const name = (after.blocks as { block_id?: string; element?: { initial_value?: string } }[]).find(
      (b) => b.block_id === 'name',
    );
    expect(name?.element?.initial_value).toBe('lobby-1');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  // The rule turns on the name the form asks for, so the form opens and the submission is judged.
  it('a policy refusal keeps the form too', async () => {
    await h.stop();
    h = await startBotHarness({
      policy: `
version: 1
rules:
  - name: sre-only-prod
    operations: [vessel.create]
    target: { environment: prod, vessel: 'arena-*' }
    requesters: { groups: [S0SRE] }
  - name: everything-else
    operations: ['*']
    approval: { mode: confirm }
`,
    });
    await h.slash('vessel create prod');
    const viewId = openedViewId(h);
    const view = h.slack.view(viewId);
    if (!view) throw new Error('no view');
    await h.submit(
      viewId,
      answers(view, { name: 'arena-9', region: 'eu-central', 'container.image': 'game-server:1.2.0' }),
    );
    const after = h.slack.view(openedViewId(h));
    expect(shown(after)).toMatch(/not allowed/);
    expect((after as { submit?: unknown } | undefined)?.submit).toEqual({
      type: 'plain_text',
      text: 'Preview',
    });
  });

  it('an environment that does not exist is answered in text, and no form opens', async () => {
    await h.slash('vessel create stag');
    expect(h.slack.callsTo('views.open')).toHaveLength(0);
    expect(lastAnswer()).toContain('No environment `stag`. Known environments: `dev`, `prod`.');
  });
});

describe('help examples (point 10)', () => {
  it('every example the help shows runs on the demo data, in the order the help lists them', async () => {
    const failures: string[] = [];
    for (const id of FORM_IDS) {
      const example = getForm(id).example;
      const before = { calls: h.slack.calls.length, answers: h.ephemeralTexts(ALICE).length };
      await h.slash(example);
      const calls = h.slack.calls.slice(before.calls);
      const answers = h.ephemeralTexts(ALICE).slice(before.answers);
      const opened = calls.filter((c) => c.method === 'views.update').at(-1)?.body.view as
        | { submit?: unknown }
        | undefined;
      const ran = getForm(id).opensModal
        ? opened?.submit !== undefined
        : calls.some((c) => c.method === 'chat.postMessage') ||
          (answers.length > 0 && !answers.some((a) => FAILURE.test(a)));
      if (!ran) failures.push(`${example}: ${answers.join(' | ') || 'no answer'}`);
    }
    expect(failures).toEqual([]);
  });
});

// How the bot starts an answer that says a command did not work.
const FAILURE =
  /^(No |\w+ \S+ has no |`[^`]*` is not|`[^`]*` is missing|you are not|You are not|Could not|Something went wrong|Some things need|One thing needs)/;
