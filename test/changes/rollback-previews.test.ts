/**
 * A rollback's preview says what the forward preview says for the same change
 * (issue 38, point 3), on Armadas and ArmadaSets alike: a scale back to max 0
 * is the documented graceful drain (allocated game servers run on), not a
 * destructive stop; an image rollback names the fleet's own strategy (Recreate
 * replaces every unallocated server at once); a restored buffer under a
 * dynamic buffer is warned about; an ImageUpdater targeting the fleet is named
 * as what may roll it forward again. Each is compared with the forward preview
 * of the same values, requested on the same state and cancelled.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Armada, ArmadaSet, ImageUpdater } from '../../src/api-shapes/armada-resources.js';
import type { Change } from '../../src/changes/change.js';
import type { RequestInput } from '../../src/changes/engine/options.js';
import type { Preview } from '../../src/changes/operation.js';
import type { FleetKind } from '../../src/gamefabric/client.js';
import { demoData } from '../../src/simulator/demo-data.js';
import { applied, click, type Harness, origin, startHarness } from './harness.js';

let h: Harness;
afterEach(async () => {
  await h.close();
});

async function apply(input: Omit<RequestInput, 'requester' | 'origin'>): Promise<Change> {
  const change = await h.engine.request({ ...input, requester: 'U1', origin } as RequestInput);
  return applied(await h.engine.confirm(click(change.id)));
}

/** The forward preview of `input` on the state as it is now (requested, then cancelled). */
async function forward(input: Omit<RequestInput, 'requester' | 'origin'>): Promise<Preview> {
  const change = await h.engine.request({ ...input, requester: 'U1', origin } as RequestInput);
  await h.engine.cancel(click(change.id));
  return change.preview;
}

async function rollbackPreview(original: Change): Promise<Preview> {
  const rb = await h.engine.request({
    operation: 'change.rollback',
    input: { changeIds: [original.id] },
    requester: 'U1',
    origin,
  });
  return rb.preview;
}

/** Each fleet kind with the entry its scale cases use and the operations that change it. */
const FLEETS = [
  {
    kind: 'Armada' as FleetKind,
    scale: 'armada.scale',
    image: 'armada.image',
    name: 'duel',
    where: { type: 'cloud' },
    counts: { minReplicas: 0, bufferSize: 2, maxReplicas: 20 },
    // dev duel runs 1.2.0
    otherTag: '1.1.0',
  },
  {
    kind: 'ArmadaSet' as FleetKind,
    scale: 'armadaset.scale',
    image: 'armadaset.image',
    name: 'arena',
    where: { region: 'us-west', type: 'cloud' },
    counts: { minReplicas: 2, bufferSize: 1, maxReplicas: 8 },
    // dev arena runs 1.1.0
    otherTag: '1.2.0',
  },
] as const;

/** Rewrites the region-type entry `f` uses, through the API as the console would. */
async function editEntry(f: (typeof FLEETS)[number], edit: (e: Record<string, unknown>) => void) {
  if (f.kind === 'Armada') {
    const armada = (await h.client.getArmada('dev', f.name)) as Armada;
    const distribution = armada.spec.distribution.map((d) => ({ ...d }));
    for (const d of distribution) if (d.name === f.where.type) edit(d);
    await h.client.patchFleet('Armada', 'dev', f.name, undefined, { distribution });
  } else {
    const set = (await h.client.getArmadaSet('dev', f.name)) as ArmadaSet;
    const armadas = set.spec.armadas.map((a) => ({
      ...a,
      distribution: a.distribution.map((d) => {
        const copy = { ...d };
        if ('region' in f.where && a.region === f.where.region && d.name === f.where.type) edit(copy);
        return copy;
      }),
    }));
    await h.client.patchFleet('ArmadaSet', 'dev', f.name, undefined, { armadas });
  }
}

describe.each(FLEETS)('rollback previews on an $kind', (f) => {
  const scale = (values: Record<string, number>) => ({
    operation: f.scale,
    input: { environment: 'dev', name: f.name, ...f.where, ...values },
  });

  it('a scale rolled back to max 0: the forward drain preview, not destructive, allocated ones keep running', async () => {
    h = await startHarness();
    // Drained first, then scaled up by the change rolled back: the rollback drains it again.
    await apply(scale({ minReplicas: 0, bufferSize: 0, maxReplicas: 0 }));
    const original = await apply(scale(f.counts));
    const drain = await forward(scale({ minReplicas: 0, bufferSize: 0, maxReplicas: 0 }));
    const preview = await rollbackPreview(original);
    expect(drain.destructive).toBe(false);
    expect(preview.destructive).toBe(false);
    expect(preview.warnings).toEqual(drain.warnings);
    expect(preview.warnings?.join(' ')).toMatch(/allocated ones? keeps? running until/);
    expect(preview.warnings?.join(' ')).not.toMatch(/every game server there stops/);
    expect(preview.notes).toEqual(expect.arrayContaining(drain.notes ?? []));
  });

  it('a scale restoring the buffer under a dynamic buffer: warned as the forward preview warns', async () => {
    h = await startHarness();
    await editEntry(f, (e) => {
      e.dynamicBuffer = { maxBufferUtilization: 80 };
    });
    const restored = f.counts.bufferSize;
    // Min moves with the buffer where it is above 0 (min >= buffer there).
    const min = (n: number): Record<string, number> =>
      f.counts.minReplicas > 0 ? { minReplicas: f.counts.minReplicas + n } : {};
    const original = await apply(scale({ bufferSize: restored + 1, ...min(1) }));
    const back = await forward(scale({ bufferSize: restored, ...min(0) }));
    const dynamic = back.warnings?.find((w) => w.startsWith('Dynamic buffer is on'));
    expect(dynamic).toContain(`override the ${restored} you set`);
    const preview = await rollbackPreview(original);
    expect(preview.warnings).toContain(dynamic);
  });

  it('an image rollback on a Recreate fleet: the strategy the forward preview names, no rolling update', async () => {
    h = await startHarness();
    await h.client.patchFleet(f.kind, 'dev', f.name, undefined, {
      template: {
        ...(f.kind === 'Armada'
          ? (await h.client.getArmada('dev', f.name)).spec.template
          : (await h.client.getArmadaSet('dev', f.name)).spec.template),
        spec: {
          ...(f.kind === 'Armada'
            ? (await h.client.getArmada('dev', f.name)).spec.template.spec
            : (await h.client.getArmadaSet('dev', f.name)).spec.template.spec),
          strategy: { type: 'Recreate' },
        },
      },
    });
    const before = f.kind === 'Armada' ? '1.2.0' : '1.1.0';
    const original = await apply({
      operation: f.image,
      input: { environment: 'dev', name: f.name, image: 'game-server', tag: f.otherTag },
    });
    const back = await forward({
      operation: f.image,
      input: { environment: 'dev', name: f.name, image: 'game-server', tag: before },
    });
    const preview = await rollbackPreview(original);
    const strategy = back.lines.find((l) => l.label === 'Strategy');
    expect(strategy?.value).toBe('Recreate: all unallocated game servers at once');
    expect(preview.lines).toContainEqual(strategy);
    const recreate = back.warnings?.find((w) => w.includes('uses the Recreate strategy'));
    expect(recreate).toBeDefined();
    expect(preview.warnings).toContain(recreate);
    expect(JSON.stringify(preview)).not.toMatch(/rolling update/i);
  });

  it('an image rollback on a fleet an ImageUpdater targets: warns it may roll forward again', async () => {
    const data = demoData();
    const dev = data.environments.dev;
    if (!dev) throw new Error('the demo data has no dev environment');
    const updater: ImageUpdater = {
      apiVersion: 'container/v1',
      kind: 'ImageUpdater',
      metadata: { name: `${f.name}-follows-dev`, environment: 'dev' },
      spec: {
        branch: 'dev',
        imageName: 'game-server',
        targetRef: { apiVersion: 'armada/v1', kind: f.kind, name: f.name },
      },
    };
    dev.imageUpdaters = [updater];
    h = await startHarness({ sim: { data } });
    const original = await apply({
      operation: f.image,
      input: { environment: 'dev', name: f.name, image: 'game-server', tag: f.otherTag },
    });
    const before = f.kind === 'Armada' ? '1.2.0' : '1.1.0';
    const back = await forward({
      operation: f.image,
      input: { environment: 'dev', name: f.name, image: 'game-server', tag: before },
    });
    const warning = back.warnings?.find((w) => w.startsWith(`ImageUpdater ${f.name}-follows-dev`));
    expect(warning).toBeDefined();
    const preview = await rollbackPreview(original);
    expect(preview.warnings).toContain(warning);
  });
});
