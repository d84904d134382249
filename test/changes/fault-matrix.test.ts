/**
 * Issue 9, defects 3, 4 and 5 and the fault matrix: the write operations (issue 21 adds the armada scales and image rollouts)
 * x faults before the write (the simulator refuses or drops it) and after it
 * (the write is applied, then the answer is broken, lost, or the write lands
 * late). For every cell, once housekeeping has settled what the apply could
 * not, the change message and the audit say what the simulator holds, and
 * nothing is applied twice.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Change } from '../../src/changes/change.js';
import type { RequestInput } from '../../src/changes/engine/options.js';
import { IN_FLIGHT_SETTLE_MS } from '../../src/changes/settle-outcome.js';
import { internalImageName } from '../../src/simulator/image-names.js';
import type { FaultRule } from '../../src/simulator/types.js';
import { renderChange } from '../../src/slack/render/change-message.js';
import { type Harness, origin, PROD_ONLY_TAG, startHarness } from './harness.js';

/** One write operation: its request, the write the fault hits, and whether the API shows it applied. */
interface Op {
  name: string;
  request: RequestInput;
  write: { method: string; path: string; clientMethod: string };
  /** Whether the simulator holds the change; throws when it holds something a double apply would leave. */
  applied(h: Harness, change: Change): Promise<boolean>;
}

const OPS: Op[] = [
  {
    name: 'promote',
    request: {
      operation: 'image.promote',
      input: { image: 'game-server', tag: PROD_ONLY_TAG, sourceBranch: 'prod', targetBranch: 'dev' },
      requester: 'U1',
      origin,
    },
    write: {
      method: 'POST',
      path: '/api/container/v1/imagepromotions/scopes/dev',
      clientMethod: 'createImagePromotion',
    },
    applied: async (h, change) =>
      h.client.getImagePromotion('dev', change.applyToken).then(
        () => true,
        () => false,
      ),
  },
  {
    name: 'vessel create',
    request: {
      operation: 'vessel.create',
      input: {
        environment: 'dev',
        name: 'fm-vessel',
        region: 'eu-central',
        containers: [{ name: 'game-server', branch: 'dev', image: 'game-server:1.2.0' }],
      },
      requester: 'U1',
      origin,
    },
    write: {
      method: 'POST',
      path: '/api/formation/v1/environments/dev/vessels',
      clientMethod: 'createVessel',
    },
    applied: async (h) => h.sim.state.getVessel('dev', 'fm-vessel') !== undefined,
  },
  {
    name: 'formation remove',
    request: {
      operation: 'formation.remove',
      input: { environment: 'dev', formation: 'lobby', vessel: 'lobby-2' },
      requester: 'U1',
      origin,
    },
    write: {
      method: 'PATCH',
      path: '/api/formation/v1/environments/dev/formations/lobby',
      clientMethod: 'removeVesselFromFormation',
    },
    applied: async (h) => {
      const names = h.sim.state.getFormation('dev', 'lobby')?.spec.vessels.map((v) => v.name);
      // Removed once is [lobby-1]; a second, blind removal would take lobby-1 too.
      if (names?.length === 2) return false;
      expect(names).toEqual(['lobby-1']);
      return true;
    },
  },
  {
    name: 'region scheduling',
    request: {
      operation: 'region.scheduling',
      input: { environment: 'dev', region: 'eu-central', type: 'baremetal', scheduling: 'Distributed' },
      requester: 'U1',
      origin,
    },
    write: {
      method: 'PATCH',
      path: '/api/core/v1/environments/dev/regions/eu-central',
      clientMethod: 'setRegionTypeScheduling',
    },
    applied: async (h) =>
      h.sim.state.getRegion('dev', 'eu-central')?.spec.types.find((t) => t.name === 'baremetal')?.template
        ?.scheduling === 'Distributed',
  },
  {
    name: 'armada scale',
    request: {
      operation: 'armada.scale',
      input: { environment: 'dev', name: 'duel', type: 'cloud', minReplicas: 2, maxReplicas: 30 },
      requester: 'U1',
      origin,
    },
    write: {
      method: 'PATCH',
      path: '/api/armada/v1/environments/dev/armadas/duel',
      clientMethod: 'setDistribution',
    },
    applied: async (h) => {
      const cloud = h.sim.state.getArmada('dev', 'duel')?.spec.distribution.find((d) => d.name === 'cloud');
      // The other type is never touched, applied or not.
      expect(h.sim.state.getArmada('dev', 'duel')?.spec.distribution[0]).toMatchObject({ maxReplicas: 10 });
      return cloud?.minReplicas === 2 && cloud.maxReplicas === 30;
    },
  },
  {
    name: 'armadaset scale',
    request: {
      operation: 'armadaset.scale',
      input: { environment: 'dev', name: 'arena', region: 'us-west', maxReplicas: 9 },
      requester: 'U1',
      origin,
    },
    write: {
      method: 'PATCH',
      path: '/api/armada/v1/environments/dev/armadasets/arena',
      clientMethod: 'setDistribution',
    },
    applied: async (h) =>
      h.sim.state.getArmadaSet('dev', 'arena')?.spec.armadas[1]?.distribution[0]?.maxReplicas === 9,
  },
  {
    name: 'armada image',
    request: {
      operation: 'armada.image',
      input: { environment: 'dev', name: 'duel', image: 'game-server', tag: '1.1.0' },
      requester: 'U1',
      origin,
    },
    write: {
      method: 'PATCH',
      path: '/api/armada/v1/environments/dev/armadas/duel',
      clientMethod: 'setTemplateImage',
    },
    applied: async (h) =>
      h.sim.state.getArmada('dev', 'duel')?.spec.template.spec.containers[0]?.image ===
      internalImageName('dev', 'game-server', '1.1.0'),
  },
  {
    name: 'armadaset image',
    request: {
      operation: 'armadaset.image',
      input: { environment: 'dev', name: 'arena', image: 'game-server', tag: '1.2.0' },
      requester: 'U1',
      origin,
    },
    write: {
      method: 'PATCH',
      path: '/api/armada/v1/environments/dev/armadasets/arena',
      clientMethod: 'setTemplateImage',
    },
    applied: async (h) =>
      h.sim.state.getArmadaSet('dev', 'arena')?.spec.template.spec.containers[0]?.image ===
      internalImageName('dev', 'game-server', '1.2.0'),
  },
];

/** A fault on the write, and whether the write ends up applied (per operation, when it depends). */
interface Fault {
  name: string;
  rule: Omit<FaultRule, 'method' | 'path'>;
  /** Only the promotion POST is retried on 503, resets and timeouts (its caller-chosen name makes that safe). */
  applied: boolean | ((op: Op) => boolean);
}

const promoteOnly = (op: Op) => op.name === 'promote';
const HANG_MS = 1e9;
/** The client's timeout, on the ManualClock; longer than drive's step (below). */
const CLIENT_TIMEOUT_MS = 1000;

const BEFORE: Fault[] = [
  { name: '500', rule: { status: 500 }, applied: false },
  { name: '503', rule: { status: 503 }, applied: promoteOnly },
  { name: '429 short', rule: { status: 429, retryAfterSeconds: 1 }, applied: true },
  { name: '429 long', rule: { status: 429, retryAfterSeconds: 600 }, applied: false },
  { name: 'reset', rule: { dropConnection: true }, applied: promoteOnly },
  { name: 'hang', rule: { latencyMs: HANG_MS }, applied: promoteOnly },
];

const AFTER: Fault[] = [
  { name: '2xx bad JSON', rule: { afterWrite: 'bad-json' }, applied: true },
  { name: 'empty 2xx', rule: { afterWrite: 'empty' }, applied: true },
  { name: '2xx wrong shape', rule: { afterWrite: 'wrong-shape' }, applied: true },
  { name: '409 without body', rule: { afterWrite: 'conflict-plain' }, applied: true },
  { name: '500', rule: { afterWrite: 'error-500' }, applied: true },
  { name: 'reset', rule: { afterWrite: 'reset' }, applied: true },
  { name: 'hang', rule: { afterWrite: 'hang' }, applied: true },
  { name: 'late landing', rule: { afterWrite: 'land-late', landAfterMs: HANG_MS }, applied: true },
];

const CELLS = OPS.flatMap((op) => [
  ...BEFORE.map((f) => ({ op, when: 'before' as const, fault: f })),
  ...AFTER.map((f) => ({ op, when: 'after' as const, fault: f })),
]);

/** Every text of a rendered message, flattened, for assertions on what a reader sees. */
function messageText(change: Change, now: number): string {
  const message = renderChange(change, now);
  return `${message.text}\n${JSON.stringify(message.blocks)}`;
}

describe('fault matrix: write operations x faults before and after the write', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  /**
   * Runs `work`, moving the shared ManualClock on while it waits on it (retry back-offs, lease
   * beats, the simulator's holds, the client's timeouts). The clock moves only while no API call
   * is under way or while the simulator holds every call under way unanswered on purpose (the
   * hang cells), which then ends only by the client's timeout, on this clock. A call answered
   * normally waits on a real socket, which moving the clock cannot hurry, and moving it then would
   * let as much simulated time pass as the I/O took turns (and could time the call out). A step
   * (500 ms) is shorter than the timeout (CLIENT_TIMEOUT_MS), so a call that starts during a step
   * cannot time out within it. The store is SQLite in memory (synchronous), so with no call under
   * way the work is parked on the clock, or about to be. Bounded, as a spin with no call under way
   * never yields to the event loop (so Jest's timeout could not end it).
   */
  async function drive<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    const done = work.finally(() => {
      settled = true;
    });
    for (let steps = 0; !settled; steps++) {
      if (steps === 100_000)
        throw new Error('the work neither ended nor called the API in 50000 s of clock time');
      await Promise.race([done, h.apiIdle(), h.apiHeld()]);
      if (!settled) await h.clock.advance(500);
    }
    return done;
  }

  it.each(CELLS.map((c) => [c.op.name, c.when, c.fault.name, c] as const))(
    '%s, fault %s the write: %s',
    async (_op, when, _fault, { op, fault }) => {
      h = await startHarness({
        // The timeout runs on the clock, which moves past it only while the simulator holds the call.
        client: {
          timeoutMs: CLIENT_TIMEOUT_MS,
          timeoutOnClock: true,
          retry: { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 1000 },
        },
      });
      const change = await h.engine.request(op.request);
      h.sim.setFaults([{ method: op.write.method, path: op.write.path, times: 1, ...fault.rule }]);
      const outcome = await drive(
        h.engine.confirm({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' }),
      );
      let current = outcome.change;
      // Without an answer, a write not seen yet may still land: only time (and housekeeping) can tell.
      const mayStillLand =
        (when === 'after' && fault.name === 'late landing') ||
        (when === 'before' && ['reset', 'hang'].includes(fault.name));
      if (mayStillLand && op.name !== 'promote') expect(outcome.kind).toBe('unconfirmed');

      if (outcome.kind === 'unconfirmed') {
        // Said honestly, with where to look; no button, nothing claimed.
        const text = messageText(current, h.clock.now());
        expect(text).toMatch(/Outcome unknown/);
        expect(text).toMatch(/Could not confirm whether this took effect/);
        expect(text).toMatch(/Look at /);
        expect(text).not.toMatch(/nothing was changed|"Done"/i);
        expect(JSON.stringify(renderChange(current, h.clock.now()).blocks)).not.toMatch(/"type":"actions"/);
        // Housekeeping reads again until it knows: a late write lands meanwhile, a lost one never shows.
        await h.clock.advance(when === 'after' ? HANG_MS : IN_FLIGHT_SETTLE_MS);
        const recovered = await drive(h.engine.recoverInterrupted());
        expect(recovered.map((c) => c.id)).toEqual([change.id]);
        current = recovered[0] as Change;
      }

      const applied = await op.applied(h, current);
      const expected = typeof fault.applied === 'function' ? fault.applied(op) : fault.applied;
      expect(applied).toBe(expected);
      // The message says what the API holds.
      const text = messageText(current, h.clock.now());
      if (applied) {
        expect(current.status).toBe('succeeded');
        // A rollout is applied, not Done, until its follow-up has seen it.
        expect(text).toMatch(
          /image$/.test(op.request.operation) ? /^(Applied, rollout followed|Done): / : /^Done: /,
        );
      } else {
        expect(current.status).toBe('failed');
        expect(text).toMatch(/nothing was changed/i);
      }
      // So does the audit: every outcome before the last is "unconfirmed", the last is the truth.
      const audit = await h.store.queryAudit({ changeId: change.id });
      const outcomes = audit
        .filter((a) => a.action === 'apply' || a.action === 'recover')
        .map((a) => a.outcome);
      expect(outcomes.at(-1)).toBe(applied ? 'succeeded' : 'failed');
      expect(outcomes.slice(0, -1).every((o) => o === 'unconfirmed')).toBe(true);
      // Applied at most once: one successful write call at most, and no write after the outcome was known.
      const writes = audit.filter(
        (a) => a.action === 'api_call' && (a.params as { method: string }).method === op.write.clientMethod,
      );
      expect(writes.filter((a) => a.outcome === 'ok').length).toBeLessThanOrEqual(1);
      expect(writes.length).toBe(1);
      // A second look settles nothing new.
      expect(await drive(h.engine.recoverInterrupted())).toEqual([]);
    },
  );

  it("a gateway's bare 409 on the promotion, nothing promoted: Failed, not Done (defect 4)", async () => {
    h = await startHarness();
    const op = OPS[0] as Op;
    const change = await h.engine.request(op.request);
    h.sim.setFaults([{ method: 'POST', path: op.write.path, status: 409, plainText: true, times: 1 }]);
    const outcome = await drive(
      h.engine.confirm({ changeId: change.id, user: 'U1', channel: 'C1', team: 'T1' }),
    );
    expect(await op.applied(h, outcome.change)).toBe(false);
    expect(outcome).toMatchObject({ kind: 'failed', change: { status: 'failed' } });
    const text = messageText(outcome.change, h.clock.now());
    expect(text).toMatch(/with 409 and no explanation/);
    expect(text).toMatch(/the change is not there, so nothing was changed/);
  });
});
