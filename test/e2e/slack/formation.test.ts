/**
 * Formations end to end: show, add with a container override, remove (a
 * destructive change behind a danger dialog) and cancel, through signed
 * Slack requests, checked against what the stand-in received and the
 * simulator's state.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { internalImageName } from '../../../src/simulator/index.js';
import { CHANGE_ACTIONS, ROW_ACTIONS } from '../../../src/slack/ids.js';
import { ALICE, type BotHarness, startBotHarness } from './bot-harness.js';
import { buttonIds, buttons, current, shown, waitForThreadReply } from './harness-extras.js';

let h: BotHarness;
beforeEach(async () => {
  h = await startBotHarness();
});
afterEach(async () => {
  await h.stop();
});

const lobby = () => h.sim.state.getFormation('dev', 'lobby');
const lobbyVessels = () => lobby()?.spec.vessels.map((v) => v.name);
const formationPatches = () => h.sim.countRequests('PATCH', '/api/formation/v1/environments/dev/formations');

describe('formation show', () => {
  it('answers privately with the vessels by index, their regions and overrides', async () => {
    const res = await h.slash('formation show dev lobby');
    expect(res.status).toBe(200);
    const answers = h.slack.ephemerals().filter((e) => e.user === ALICE.id);
    expect(answers).toHaveLength(1);
    const text = shown(answers[0]);
    expect(text).toContain('`#0` *lobby-1*');
    expect(text).toContain('`#1` *lobby-2*');
    expect(text).toContain('eu-central');
    expect(text).toContain('--max-players 64');
    // A read posts nothing in the channel and writes nothing.
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(h.sim.requests.every((r) => r.method === 'GET')).toBe(true);
  });
});

describe('formation add', () => {
  it('previews the override, adds the vessel on Confirm and follows up in the thread', async () => {
    await h.slash(
      'formation add dev lobby lobby-3 eu-central --container game-server --image game-server:1.2.0 --args "--max-players 64"',
    );
    const preview = h.lastMessage();
    expect(preview.text).toContain('lobby-3');
    expect(shown(preview)).toContain('game-server:1.2.0');
    expect(shown(preview)).toContain('--max-players 64');
    expect(buttonIds(preview)).toEqual([CHANGE_ACTIONS.confirm, CHANGE_ACTIONS.cancel]);
    // Not destructive: a primary Confirm without a dialog.
    expect(buttons(preview)[0]?.confirm).toBeUndefined();
    expect(formationPatches()).toBe(0);
    expect(lobbyVessels()).toEqual(['lobby-1', 'lobby-2']);

    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(formationPatches()).toBe(1);
    const added = lobby()?.spec.vessels.find((v) => v.name === 'lobby-3');
    expect(added?.region).toBe('eu-central');
    expect(added?.override?.containers).toEqual([
      {
        name: 'game-server',
        image: internalImageName('dev', 'game-server', '1.2.0'),
        args: ['--max-players', '64'],
      },
    ]);
    const done = current(h, preview);
    expect(done.text).toMatch(/^Done/);
    expect(buttonIds(done)).toEqual([ROW_ACTIONS.rollback]);
    expect(shown(done)).toContain(`confirmed by <@${ALICE.id}>`);

    // The vessel is read back first: the thread says what it runs.
    const check = await waitForThreadReply(h, preview, /Overrides took effect on vessel lobby-3/);
    expect(String(check.body.text)).toContain('game-server runs image game-server:1.2.0');
    const reply = await waitForThreadReply(h, preview, /lobby-3 is placed/);
    expect(h.slack.thread(preview.channel, preview.ts).map((m) => m.text)).toContain(reply.body.text);
  });

  it('overrides command and env (the provider’s override fields), says an image override may not be honoured', async () => {
    await h.slash(
      'formation add dev lobby lobby-4 eu-central --container game-server --command "/app/server --fast" --env LOG_LEVEL=debug --env REGION=eu',
    );
    const preview = h.lastMessage();
    expect(shown(preview)).toContain('/app/server --fast');
    expect(shown(preview)).toContain('env LOG_LEVEL=debug REGION=eu');
    expect(shown(preview)).not.toContain('may not honour an image override');
    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(lobby()?.spec.vessels.find((v) => v.name === 'lobby-4')?.override?.containers).toEqual([
      {
        name: 'game-server',
        command: ['/app/server', '--fast'],
        env: [
          { name: 'LOG_LEVEL', value: 'debug' },
          { name: 'REGION', value: 'eu' },
        ],
      },
    ]);
    const check = await waitForThreadReply(h, preview, /Overrides took effect on vessel lobby-4/);
    expect(String(check.body.text)).toContain('game-server has LOG_LEVEL=debug');
    expect(String(check.body.text)).toContain('game-server has command /app/server --fast');

    await h.slash(
      'formation add dev lobby lobby-5 eu-central --container game-server --image game-server:1.2.0',
    );
    expect(shown(h.lastMessage())).toContain('the real controller may not honour an image override');
    await h.slash('formation add dev lobby lobby-6 eu-central --container game-server --env =oops');
    expect(h.ephemeralTexts(ALICE).at(-1)).toContain('is not NAME=value');
  });

  it('refuses a vessel name the formation already has, and writes nothing', async () => {
    await h.slash('formation add dev lobby lobby-2 eu-central');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(h.ephemeralTexts(ALICE).join('\n')).toMatch(/lobby-2/);
    expect(formationPatches()).toBe(0);
  });
});

describe('formation remove', () => {
  it('is destructive: Confirm sits behind a danger dialog; on Confirm the vessel is gone', async () => {
    await h.slash('formation remove dev lobby lobby-2');
    const preview = h.lastMessage();
    expect(preview.text).toContain('lobby-2');
    const confirm = buttons(preview).find((b) => b.action_id === CHANGE_ACTIONS.confirm);
    expect(confirm?.style).toBe('danger');
    expect(confirm?.confirm?.style).toBe('danger');
    expect(shown(preview)).toMatch(/destructive/i);
    expect(lobbyVessels()).toEqual(['lobby-1', 'lobby-2']);

    await h.click(preview, CHANGE_ACTIONS.confirm);
    expect(formationPatches()).toBe(1);
    expect(lobbyVessels()).toEqual(['lobby-1']);
    const done = current(h, preview);
    expect(done.text).toMatch(/^Done/);
    expect(shown(done)).toContain('Removed vessel lobby-2');
    expect(buttonIds(done)).toEqual([ROW_ACTIONS.rollback]);

    // The thread follows the vessel until the controller has deleted it.
    await waitForThreadReply(h, preview, /lobby-2 is gone/);
    expect(h.sim.state.getVessel('dev', 'lobby-2')).toBeUndefined();
  });

  it('Cancel leaves the formation alone; the message says cancelled and has no buttons', async () => {
    await h.slash('formation remove dev lobby lobby-2');
    const preview = h.lastMessage();
    // The stand-in updates messages in place; keep the buttons as a stale client would still show them.
    const stale = structuredClone(preview);
    await h.click(preview, CHANGE_ACTIONS.cancel);
    expect(formationPatches()).toBe(0);
    expect(lobbyVessels()).toEqual(['lobby-1', 'lobby-2']);
    const closed = current(h, preview);
    expect(closed.text).toBe('Cancelled: Remove vessel lobby-2 from formation lobby in dev');
    expect(shown(closed)).toContain('nothing was applied');
    expect(buttonIds(closed)).toEqual([]);

    // A stale client still showing the old buttons: a late Confirm does nothing and says so privately.
    await h.click(stale, CHANGE_ACTIONS.confirm);
    expect(formationPatches()).toBe(0);
    expect(h.ephemeralTexts(ALICE)).toEqual([
      'This change was cancelled by <@U0ALICE>; nothing was applied.',
    ]);
    expect(lobbyVessels()).toEqual(['lobby-1', 'lobby-2']);
  });

  it('names the vessels there are when the vessel is not in the formation', async () => {
    await h.slash('formation remove dev lobby lobby-9');
    expect(h.slack.callsTo('chat.postMessage')).toHaveLength(0);
    expect(h.ephemeralTexts(ALICE).join('\n')).toContain('its vessels: lobby-1, lobby-2');
  });
});
