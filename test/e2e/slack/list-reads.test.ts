/**
 * Issue 18.9: every kind the bot changes can be listed and shown, and lists
 * carry per-row actions (Show, Logs, Delete, Promote) that take the same road
 * as the typed command; a one-shot logs answer carries a Follow button that
 * starts the live tail. Real signed requests into the bot, the simulator as
 * the hosting API, the stand-in as Slack.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ROW_ACTIONS, TAIL_ACTIONS } from '../../../src/slack/ids.js';
import { TEST_CHANNEL, type TestUser } from '../../../src/workspace/identity.js';
import type { EphemeralMessage } from '../../../src/workspace/stand-in.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttons, clickEphemeral, openedViewId, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

/** `/harbor <text>` as `user`; the private answer they got. */
async function privateAnswer(text: string, user: TestUser = ALICE): Promise<EphemeralMessage> {
  await h.slash(text, user);
  return lastPrivate(user);
}

function lastPrivate(user: TestUser = ALICE): EphemeralMessage {
  const answer = h.slack
    .ephemerals()
    .filter((e) => e.user === user.id)
    .at(-1);
  if (!answer) throw new Error(`${user.name} got no answer`);
  return answer;
}

/** The row button `actionId` whose value is `value`, with its accessibility label. */
function rowButton(answer: EphemeralMessage, actionId: string, value: string) {
  const button = buttons(answer).find((b) => b.action_id === actionId && b.value === value) as
    | { accessibility_label?: string; value?: string }
    | undefined;
  if (!button) throw new Error(`no ${actionId} button for ${value} in ${shown(answer)}`);
  return button;
}

describe('list and show reads (issue 18.9)', () => {
  it('`formations dev` lists the formations, each with a Show button that shows it', async () => {
    const answer = await privateAnswer('formations dev');
    expect(shown(answer)).not.toContain('is not a command');
    expect(shown(answer)).toContain('lobby');
    expect(shown(answer)).toContain('2 vessels');
    const show = rowButton(answer, ROW_ACTIONS.show, 'formation show dev lobby');
    expect(show.accessibility_label).toBe('Show formation lobby in dev');
    await clickEphemeral(h, answer, ROW_ACTIONS.show, ALICE, 'formation show dev lobby');
    const shownFormation = lastPrivate();
    expect(shown(shownFormation)).toContain('Formation lobby');
    expect(shown(shownFormation)).toContain('lobby-2');
  });

  it('`regions dev` lists the regions with their types, each with a Show button', async () => {
    const answer = await privateAnswer('regions dev');
    expect(shown(answer)).toContain('eu-central');
    expect(shown(answer)).toContain('us-west');
    expect(shown(answer)).toContain('baremetal');
    rowButton(answer, ROW_ACTIONS.show, 'region show dev eu-central');
    await clickEphemeral(h, answer, ROW_ACTIONS.show, ALICE, 'region show dev us-west');
    expect(shown(lastPrivate())).toContain('Region us-west');
  });

  it('`vessel show dev lobby-1` shows the vessel with Logs, and Remove from its formation', async () => {
    const answer = await privateAnswer('vessel show dev lobby-1');
    expect(shown(answer)).toContain('Vessel lobby-1');
    expect(shown(answer)).toContain('eu-central');
    expect(shown(answer)).toContain('game-server:1.1.0');
    expect(shown(answer)).toContain('formation `lobby`');
    rowButton(answer, ROW_ACTIONS.logs, 'logs dev lobby-1');
    const remove = rowButton(answer, ROW_ACTIONS.remove, 'formation remove dev lobby lobby-1');
    expect(remove.accessibility_label).toBe('Remove vessel lobby-1 from formation lobby in dev');
    // A direct delete of a formation's vessel is refused, so it is not offered.
    expect(buttons(answer).map((b) => b.action_id)).not.toContain(ROW_ACTIONS.delete);

    await clickEphemeral(h, answer, ROW_ACTIONS.remove, ALICE, 'formation remove dev lobby lobby-1');
    const preview = h.lastMessage();
    expect(shown(preview)).toContain('lobby-1');
    expect(buttons(preview).map((b) => b.action_id)).toContain('change.confirm');
  });

  it('`formation show` rows carry Logs and Show; `armadas` rows carry Show', async () => {
    const formation = await privateAnswer('formation show dev lobby');
    rowButton(formation, ROW_ACTIONS.logs, 'logs dev lobby-2');
    rowButton(formation, ROW_ACTIONS.show, 'vessel show dev lobby-2');
    const armadas = await privateAnswer('armadas dev');
    rowButton(armadas, ROW_ACTIONS.show, 'armada show dev duel');
    const set = rowButton(armadas, ROW_ACTIONS.show, 'armadaset show dev arena');
    expect(set.accessibility_label).toBe('Show ArmadaSet arena in dev');
    await clickEphemeral(h, armadas, ROW_ACTIONS.show, ALICE, 'armadaset show dev arena');
    expect(shown(lastPrivate())).toContain('ArmadaSet *arena*');
  });

  it('names the vessels that exist when `vessel show` names one that does not', async () => {
    const answer = await privateAnswer('vessel show dev lobby-9');
    expect(answer.text).toContain('lobby-9');
    expect(answer.text).toContain('lobby-1');
  });

  it('`vessels dev` rows carry Logs, Show and Delete, which take the usual roads', async () => {
    const answer = await privateAnswer('vessels dev');
    const show = rowButton(answer, ROW_ACTIONS.show, 'vessel show dev duel-1');
    expect(show.accessibility_label).toBe('Show vessel duel-1 in dev');
    rowButton(answer, ROW_ACTIONS.logs, 'logs dev duel-1');
    rowButton(answer, ROW_ACTIONS.delete, 'vessel delete dev duel-1');

    await clickEphemeral(h, answer, ROW_ACTIONS.show, ALICE, 'vessel show dev duel-1');
    expect(shown(lastPrivate())).toContain('Vessel duel-1');

    // Delete posts the usual preview with Confirm in the channel; nothing is deleted yet.
    await clickEphemeral(h, answer, ROW_ACTIONS.delete, ALICE, 'vessel delete dev duel-1');
    const preview = h.lastMessage();
    expect(shown(preview)).toContain('duel-1');
    expect(buttons(preview).map((b) => b.action_id)).toContain('change.confirm');
    expect(h.sim.state.getVessel('dev', 'duel-1')).toBeDefined();
  });

  it('Logs on a row answers with the last lines and a Follow button that starts the live tail', async () => {
    const answer = await privateAnswer('vessels dev');
    await clickEphemeral(h, answer, ROW_ACTIONS.logs, ALICE, 'logs dev lobby-1');
    const logs = lastPrivate();
    expect(logs.text).toMatch(/log lines? of lobby-1|No log lines from lobby-1/);
    const follow = buttons(logs).find((b) => b.action_id === TAIL_ACTIONS.start) as
      | { value?: string; accessibility_label?: string; text?: { text: string } }
      | undefined;
    expect(follow?.text?.text).toBe('Follow');
    expect(follow?.accessibility_label).toBe('Follow the logs of lobby-1 in dev live');
    expect(JSON.parse(follow?.value ?? '{}')).toEqual({ environment: 'dev', vessel: 'lobby-1' });

    await clickEphemeral(h, logs, TAIL_ACTIONS.start, ALICE, follow?.value ?? '');
    const tail = h.slack
      .channelMessages(TEST_CHANNEL.id)
      .find((m) => buttons(m).some((b) => b.action_id === TAIL_ACTIONS.stop));
    expect(tail).toBeDefined();
  });

  it('`images dev` rows carry Promote, which opens the promote form with the branch and image chosen', async () => {
    const answer = await privateAnswer('images dev');
    const promote = rowButton(answer, ROW_ACTIONS.promote, 'promote game-server:1.2.0 from dev');
    expect(promote.accessibility_label).toBe('Promote game-server:1.2.0 from dev');
    await clickEphemeral(h, answer, ROW_ACTIONS.promote, ALICE, 'promote game-server:1.2.0 from dev');
    const view = h.slack.view(openedViewId(h));
    const text = JSON.stringify(view?.blocks);
    expect(text).toContain('"initial_option":{"text":{"type":"plain_text","text":"dev');
    expect(text).toMatch(/"initial_option":\{"text":\{"type":"plain_text","text":"game-server:1\.2\.0/);
  });

  it('refuses a row button whose value is not the kind of command it names', async () => {
    const answer = await privateAnswer('vessels dev');
    await clickEphemeral(h, answer, ROW_ACTIONS.show, ALICE, 'vessel delete dev duel-1');
    expect(lastPrivate().text).toContain('Show');
    expect(h.slack.channelMessages(TEST_CHANNEL.id)).toHaveLength(0);
  });

  it.each([
    ['formation dev', 'formations dev'],
    ['region dev', 'regions dev'],
  ])('suggests the list for `%s`', async (typed, meant) => {
    const answer = await privateAnswer(typed);
    expect(shown(answer)).toContain(meant);
  });

  it('lists the new forms in help', async () => {
    await privateAnswer('help formations');
    expect(shown(lastPrivate())).toContain('/harbor formations &lt;env&gt;');
    await privateAnswer('help vessels');
    expect(shown(lastPrivate())).toContain('/harbor vessel show &lt;env&gt; &lt;vessel&gt;');
  });
});
