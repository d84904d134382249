/**
 * A status write between the apply's read and its merge patch (issue 38,
 * point 5): the fleet's revision moves, its spec does not. That GameFabric
 * checks `metadata.revision` at all is inferred; the simulator does, and
 * with `writeStatusFirst` moves the revision just before the PATCH is
 * handled. The change must apply on the new revision, say what happened,
 * and not claim a concurrent change. Real parts over loopback (simulator,
 * client, engine, store).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Change, ClickOutcome } from '../../src/changes/change.js';
import { type Harness, origin, startHarness } from './harness.js';

const click = (changeId: string) => ({ changeId, user: 'U1', channel: 'C1', team: 'T1' });

function applied(out: ClickOutcome): Change {
  if (out.kind !== 'applied') throw new Error(`expected applied, got ${out.kind}: ${JSON.stringify(out)}`);
  return out.change;
}

describe('a status write between read and patch', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('scales an Armada on the new revision and says only the revision moved', async () => {
    const path = '/api/armada/v1/environments/dev/armadas/duel';
    const before = h.sim.state.getArmada('dev', 'duel');
    const change = await h.engine.request({
      operation: 'armada.scale',
      input: { environment: 'dev', name: 'duel', type: 'cloud', maxReplicas: 30 },
      requester: 'U1',
      origin,
    });
    h.sim.setFaults([{ method: 'PATCH', path, writeStatusFirst: true, times: 1 }]);
    const done = applied(await h.engine.confirm(click(change.id)));

    expect(done.status).toBe('succeeded');
    const patches = h.sim.requests.filter((r) => r.method === 'PATCH' && r.path === path);
    expect(patches.map((r) => r.status)).toEqual([409, 200]);
    const after = h.sim.state.getArmada('dev', 'duel');
    expect(after?.spec.distribution.find((d) => d.name === 'cloud')?.maxReplicas).toBe(30);
    // Everything else as it was: the status write changed no spec, and the patch carried only the new entry.
    expect(after?.spec.distribution.find((d) => d.name === 'baremetal')).toEqual(
      before?.spec.distribution.find((d) => d.name === 'baremetal'),
    );
    expect(done.result?.lines).toEqual([
      {
        label: 'Note',
        value:
          'its revision moved once with nothing this change sends changed (a status write, say); the patch was sent again on the new revision',
      },
    ]);
  });

  it('sets an ArmadaSet image on the new revision', async () => {
    const path = '/api/armada/v1/environments/dev/armadasets/arena';
    const change = await h.engine.request({
      operation: 'armadaset.image',
      input: { environment: 'dev', name: 'arena', image: 'game-server', tag: '1.2.0' },
      requester: 'U1',
      origin,
    });
    h.sim.setFaults([{ method: 'PATCH', path, writeStatusFirst: true, times: 1 }]);
    const done = applied(await h.engine.confirm(click(change.id)));

    const patches = h.sim.requests.filter((r) => r.method === 'PATCH' && r.path === path);
    expect(patches.map((r) => r.status)).toEqual([409, 200]);
    expect(done.result?.lines.map((l) => l.value).join(' ')).not.toContain('changed meanwhile');
    expect(done.result?.lines.map((l) => l.value).join(' ')).toContain('its revision moved once');
  });
});
