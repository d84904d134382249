/**
 * Formation vessel overrides against the simulator in real-shapes mode
 * (issue 12.4): entries go in template container order, so a controller that
 * applies them by position overrides the intended container; and after the
 * controller creates the Vessel the bot reads it back and says whether the
 * overrides took effect, never naming an image the Vessel does not run.
 * Real parts over loopback: simulator, client, engine, store; one ManualClock.
 */

import { afterEach, describe, expect, it } from '@jest/globals';
import type { Change, ClickOutcome } from '../../src/changes/change.js';
import { queryFormation } from '../../src/changes/queries.js';
import type { OperationInput } from '../../src/changes/requests/index.js';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { collectFollow, type Harness, origin, startHarness } from '../changes/harness.js';

const click = (changeId: string) => ({ changeId, user: 'U1', channel: 'C1', team: 'T1' });

function applied(out: ClickOutcome): Change {
  if (out.kind !== 'applied') throw new Error(`expected applied, got ${out.kind}: ${JSON.stringify(out)}`);
  return out.change;
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
});

async function start(sim: SimulatorOptions): Promise<Harness> {
  h = await startHarness({ sim });
  return h;
}

/** A dev Formation `duo` with two containers, game-server then sidecar, and no vessels. */
async function createDuo(harness: Harness): Promise<string> {
  const image = (await harness.client.findImage('dev', 'game-server', '1.0.0')).metadata.name;
  await harness.client.createFormation('dev', {
    metadata: { name: 'duo' },
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'game-server', branch: 'dev', image, args: ['--a'] },
            { name: 'sidecar', branch: 'dev', image, args: ['--s'] },
          ],
        },
      },
      vessels: [],
    },
  });
  return image;
}

async function addVessel(harness: Harness, input: OperationInput<'formation.add'>) {
  const change = await harness.engine.request({ operation: 'formation.add', input, requester: 'U1', origin });
  const done = applied(await harness.engine.confirm(click(change.id)));
  const events = await collectFollow(harness.clock, harness.engine.follow(done));
  return { change, done, events };
}

describe('formation add with overrides against a controller that applies them by position', () => {
  it('sends an entry per container up to the overridden one, so the sidecar gets the override', async () => {
    const s = await start({ realShapes: true });
    const templateImage = await createDuo(s);
    const newer = (await s.client.findImage('dev', 'game-server', '1.1.0')).metadata.name;
    const { change, events } = await addVessel(s, {
      environment: 'dev',
      formation: 'duo',
      vessel: 'duo-1',
      region: 'eu-central',
      overrides: [{ container: 'sidecar', image: 'game-server:1.1.0', args: ['--y'] }],
    });
    expect(change.preview.notes).toEqual([
      'Once the vessel exists, the bot reads it back and says whether it runs these overrides.',
      "The platform's own override type has args, command, env, config files and secrets, but no image: the real controller may not honour an image override (the read-back says).",
    ]);
    const formation = await s.client.getFormation('dev', 'duo');
    expect(formation.spec.vessels[0]?.override?.containers).toEqual([
      { name: 'game-server' },
      { name: 'sidecar', image: newer, args: ['--y'] },
    ]);
    const containers = s.sim.state.getVessel('dev', 'duo-1')?.spec.template.spec.containers;
    expect(containers?.map((c) => [c.name, c.image, c.args])).toEqual([
      ['game-server', templateImage, ['--a']],
      ['sidecar', newer, ['--y']],
    ]);
    expect(events[0]).toEqual({
      kind: 'progress',
      message: `Overrides took effect on vessel duo-1: sidecar runs image game-server:1.1.0 (${newer}); sidecar has args --y.`,
      vessel: { environment: 'dev', name: 'duo-1' },
    });
    expect(events.at(-1)?.kind).toBe('done');
    // The formation view names the placeholder's container by position and lists only real overrides.
    const view = await queryFormation(s.client, 'dev', 'duo');
    expect(view.vessels[0]?.overrides).toEqual([
      { container: 'sidecar', image: 'game-server:1.1.0', args: ['--y'] },
    ]);
  });

  it('sends no placeholder when the first container is the only one overridden', async () => {
    const s = await start({ realShapes: true });
    await createDuo(s);
    await addVessel(s, {
      environment: 'dev',
      formation: 'duo',
      vessel: 'duo-2',
      region: 'eu-central',
      overrides: [{ container: 'game-server', args: ['--z'] }],
    });
    const formation = await s.client.getFormation('dev', 'duo');
    expect(formation.spec.vessels[0]?.override?.containers).toEqual([{ name: 'game-server', args: ['--z'] }]);
  });
});

describe('formation add when the API ignores override images', () => {
  it('reports that the image override did not take effect, naming the image the vessel runs', async () => {
    const s = await start({ realShapes: true, ignoreOverrideImages: true });
    const lobby = await s.client.getFormation('dev', 'lobby');
    const templateImage = lobby.spec.template?.spec.containers[0]?.image;
    const requested = (await s.client.findImage('dev', 'game-server', '1.0.0')).metadata.name;
    expect(requested).not.toBe(templateImage);
    const { events } = await addVessel(s, {
      environment: 'dev',
      formation: 'lobby',
      vessel: 'lobby-3',
      region: 'eu-central',
      overrides: [{ container: 'game-server', image: 'game-server:1.0.0', args: ['--mode', 'ranked'] }],
    });
    expect(s.sim.state.getVessel('dev', 'lobby-3')?.spec.template.spec.containers[0]?.image).toBe(
      templateImage,
    );
    expect(events[0]).toEqual({
      kind: 'failed',
      message:
        `Override did not take effect on vessel lobby-3: game-server runs image ${templateImage}, ` +
        `not the requested game-server:1.0.0 (${requested}). Took effect: game-server has args --mode ranked. ` +
        'The platform may not apply this override field.',
      vessel: { environment: 'dev', name: 'lobby-3' },
    });
    // Still followed to the end: the vessel was added, only its image differs.
    expect(events.at(-1)?.kind).toBe('done');
    // Nothing after the check claims the requested image runs.
    expect(events.slice(1).some((e) => e.message.includes(requested))).toBe(false);
  });
});
