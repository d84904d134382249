/**
 * Rollback through Slack: the applied change's Roll back button posts the
 * rollback's preview (before -> after), Confirm writes the inverse once, and
 * the original's message then says which rollback rolled it back; the
 * command form answers a second rollback with why not. A rollback back to max
 * 0 is the graceful drain its forward scale is (not destructive, allocated
 * game servers keep running), and one whose image is gone from its branch is
 * refused naming both (issue 38), on an Armada and an ArmadaSet.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { internalImageName } from '../../../src/simulator/image-names.js';
import { CHANGE_ACTIONS, ROW_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, BOB, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttonIds, buttons, clickEphemeral, current, shown } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const entry = () => h.sim.state.getArmada('dev', 'duel')?.spec.distribution.find((d) => d.name === 'cloud');

it('Roll back on a Done scale previews the inverse, applies it once, and marks the original rolled back', async () => {
  await h.slash('armada scale dev duel --type cloud --max 30');
  const original = h.lastMessage();
  // The change id its Confirm button carries.
  const changeId = buttons(original).find((b) => b.action_id === CHANGE_ACTIONS.confirm)?.value;
  expect(changeId).toBeDefined();
  await h.click(original, CHANGE_ACTIONS.confirm);
  const done = current(h, original);
  expect(buttonIds(done)).toContain(ROW_ACTIONS.rollback);

  // Bob rolls back Alice's change: the preview names the change and who made it.
  await h.click(done, ROW_ACTIONS.rollback, BOB);
  const preview = h.lastMessage();
  expect(preview.text).toContain('back to min 0, buffer 2, max 20');
  expect(shown(preview)).toContain('min 0, buffer 2, max 30 → min 0, buffer 2, max 20');
  expect(shown(preview)).toContain(`change ${changeId}`);
  expect(JSON.stringify(preview.blocks)).toContain(JSON.stringify(`*Made by*\n<@${ALICE.id}>`));
  await h.click(preview, CHANGE_ACTIONS.confirm, BOB);
  expect(entry()).toMatchObject({ minReplicas: 0, bufferSize: 2, maxReplicas: 20 });
  expect(shown(current(h, preview))).toMatch(/Rolled back change/);

  // The original's message says which rollback rolled it back, and offers it no more.
  const after = current(h, original);
  // …naming the person who rolled it back, and linking the rollback.
  expect(shown(after)).toMatch(new RegExp(`Rolled back by <@${BOB.id}> in <[^|]+\\|change \\S+>`));
  // …with a permalink to the rollback's message.
  const rollbackLink = `https://slack.com/archives/${preview.channel}/p${preview.ts.replace('.', '')}`;
  expect(JSON.stringify(after.blocks)).toContain(`<${rollbackLink}|change `);
  expect(buttonIds(after)).not.toContain(ROW_ACTIONS.rollback);
  await h.slash(`rollback ${changeId}`);
  expect(h.ephemeralTexts(ALICE).at(-1)).toMatch(/was already rolled back, by change/);
  // …with a link to the rollback that did it.
  expect(h.ephemeralTexts(ALICE).at(-1)).toContain(`See <${rollbackLink}|change `);
});

it('history rows show the change id and offer Roll back on an applied change, until it is rolled back', async () => {
  await h.slash('armada scale dev duel --type cloud --max 30');
  const original = h.lastMessage();
  const changeId = buttons(original).find((b) => b.action_id === CHANGE_ACTIONS.confirm)?.value ?? '';
  await h.click(original, CHANGE_ACTIONS.confirm);

  const history = async () => {
    await h.slash('history', ALICE);
    const answer = h.slack
      .ephemerals()
      .filter((e) => e.user === ALICE.id)
      .at(-1);
    if (!answer) throw new Error('no history answer');
    return answer;
  };
  const before = await history();
  expect(shown(before)).toContain(`change \`${changeId}\``);
  const offered = buttons(before).find((b) => b.action_id === ROW_ACTIONS.rollback);
  expect(offered?.value).toBe(`rollback ${changeId}`);

  await clickEphemeral(h, before, ROW_ACTIONS.rollback, ALICE, offered?.value);
  const preview = h.lastMessage();
  expect(preview.text).toContain(`Roll back change ${changeId}`);
  const rollbackId = buttons(preview).find((b) => b.action_id === CHANGE_ACTIONS.confirm)?.value ?? '';
  await h.click(preview, CHANGE_ACTIONS.confirm);
  expect(entry()).toMatchObject({ maxReplicas: 20 });

  // Rolled back: the row says by which change and offers it no more; the rollback's own row offers none.
  const after = await history();
  expect(rollbackId).not.toBe('');
  expect(shown(after)).toContain(`rolled back by change \`${rollbackId}\``);
  expect(buttonIds(after)).not.toContain(ROW_ACTIONS.rollback);
});

/** Types `command` and confirms it; returns the change id its Confirm carried. */
async function confirmed(command: string): Promise<string> {
  await h.slash(command);
  const message = h.lastMessage();
  const id = buttons(message).find((b) => b.action_id === CHANGE_ACTIONS.confirm)?.value ?? '';
  await h.click(message, CHANGE_ACTIONS.confirm);
  return id;
}

describe.each([
  { kind: 'Armada', command: 'armada', name: 'duel', where: '--type cloud', up: '--buffer 2 --max 20' },
  {
    kind: 'ArmadaSet',
    command: 'armadaset',
    name: 'arena',
    where: '--region us-west --type cloud',
    up: '--min 2 --buffer 1 --max 8',
  },
])('rollback on an $kind through /harbor rollback', ({ command, name, where, up }) => {
  it('back to max 0: the drain its forward scale is, not destructive, allocated game servers keep running', async () => {
    await confirmed(`${command} scale dev ${name} ${where} --min 0 --buffer 0 --max 0`);
    const original = await confirmed(`${command} scale dev ${name} ${where} ${up}`);
    await h.slash(`rollback ${original}`);
    const preview = h.lastMessage();
    expect(shown(preview)).toContain('min 0, buffer 0, max 0');
    expect(shown(preview)).toMatch(
      /no new game servers start there and unallocated ones stop; .*allocated .*keeps? running until/,
    );
    expect(shown(preview)).not.toContain('every game server there stops');
    const confirm = buttons(preview).find((b) => b.action_id === CHANGE_ACTIONS.confirm);
    expect(confirm?.style).not.toBe('danger');
    expect(confirm?.confirm?.style).not.toBe('danger');
  });

  it('refused, naming the image and the branch, when the image it sets back is gone', async () => {
    await confirmed(`${command} image dev ${name} game-server:1.0.0`);
    const original = await confirmed(
      `${command} image dev ${name} game-server:${name === 'duel' ? '1.1.0' : '1.2.0'}`,
    );
    // Nothing in dev runs 1.0.0 now: its retention policy may delete it.
    h.sim.deleteImage('dev', internalImageName('dev', 'game-server', '1.0.0'));
    await h.slash(`rollback ${original}`);
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain(
      `Cannot roll back change ${original}: game-server:1.0.0 (internal name ${internalImageName('dev', 'game-server', '1.0.0')}) is no longer in branch dev (deleted by the branch's image retention policy or by hand)`,
    );
    // No rollback preview was posted: nothing to confirm.
    const texts = h.slack.callsTo('chat.postMessage').map((c) => String(c.body.text));
    expect(texts.filter((t) => t.includes('Roll back change'))).toEqual([]);
  });
});
