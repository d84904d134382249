/**
 * Issue 38, point 4, on the real engine, simulator and store: a promotion's
 * rollback sets back every target of the ImageUpdaters it rolled out, the
 * Formation too, each guarded against having moved since (a Vessel, whose
 * image Harbormaster does not write, is named in the preview and the result);
 * and an image rollback (of an image change on an Armada or ArmadaSet, or of
 * a promotion) refuses, naming the image and the branch, when the image it
 * would write back is gone from its branch, at the preview and again at the
 * apply, writing nothing.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { ImageUpdater } from '../../src/api-shapes/armada-resources.js';
import type { Change } from '../../src/changes/change.js';
import type { RequestInput } from '../../src/changes/engine/options.js';
import { demoData } from '../../src/simulator/demo-data.js';
import { internalImageName } from '../../src/simulator/image-names.js';
import { applied, click, type Harness, origin, startHarness } from './harness.js';

let h: Harness;
afterEach(async () => {
  await h.close();
});

const updater = (name: string, kind: string, target: string, apiVersion = 'formation/v1'): ImageUpdater => ({
  apiVersion: 'container/v1',
  kind: 'ImageUpdater',
  metadata: { name, environment: 'prod' },
  spec: { branch: 'prod', imageName: 'game-server', targetRef: { apiVersion, kind, name: target } },
});

/** The demo data with prod ImageUpdaters for ArmadaSet arena (the demo's), Armada duel, Formation arena and Vessel solo-1. */
function promotionWorld() {
  const data = demoData();
  const prod = data.environments.prod;
  if (!prod) throw new Error('the demo data has no prod environment');
  const template = prod.formations?.[0]?.spec.template;
  if (!template) throw new Error('the demo prod formation has no template');
  prod.vessels = [
    {
      apiVersion: 'formation/v1',
      kind: 'Vessel',
      metadata: { name: 'solo-1', environment: 'prod' },
      spec: { region: 'eu-central', template: structuredClone(template) },
    },
  ];
  prod.imageUpdaters = [
    ...(prod.imageUpdaters ?? []),
    updater('duel-game-server', 'Armada', 'duel', 'armada/v1'),
    updater('arena-formation', 'Formation', 'arena'),
    updater('solo-game-server', 'Vessel', 'solo-1'),
  ];
  return data;
}

async function promoteIntoProd(): Promise<Change> {
  const change = await h.engine.request({
    operation: 'image.promote',
    input: { image: 'game-server', tag: '1.2.0', sourceBranch: 'dev', targetBranch: 'prod' },
    requester: 'U1',
    origin,
  } as RequestInput);
  return applied(await h.engine.approve(click(change.id, 'U2')));
}

const rollback = (id: string) =>
  h.engine.request({ operation: 'change.rollback', input: { changeIds: [id] }, requester: 'U1', origin });

const formationImage = async () =>
  (await h.client.getFormation('prod', 'arena')).spec.template?.spec.containers[0]?.image;
const vesselImage = async () =>
  (await h.client.getVessel('prod', 'solo-1')).spec.template.spec.containers[0]?.image;

describe('a promotion rollback and the Formation and Vessel targets of its ImageUpdaters', () => {
  it('sets the Formation back with the fleets, and names the Vessel it does not set back', async () => {
    h = await startHarness({ sim: { data: promotionWorld() } });
    const before = await formationImage();
    const original = await promoteIntoProd();
    const landed = String(original.result?.facts.landedName);
    expect(await formationImage()).toBe(landed);
    expect(await vesselImage()).toBe(landed);

    const rb = await rollback(original.id);
    expect(rb.preview.lines).toEqual(
      expect.arrayContaining([
        {
          label: 'Image of formation arena (prod), container game-server',
          value: 'game-server:1.2.0 → game-server:1.0.0',
        },
        {
          label: 'Image of ArmadaSet arena (prod), container game-server',
          value: 'game-server:1.2.0 → game-server:1.0.0',
        },
      ]),
    );
    const notSetBack =
      "vessel solo-1 (prod), container game-server: stays on game-server:1.2.0 (ImageUpdater solo-game-server); Harbormaster does not write a Vessel's image, so set it back to game-server:1.0.0 in the GameFabric console";
    expect(rb.preview.lists).toContainEqual({ title: 'Not set back', items: [notSetBack] });

    const done = applied(await h.engine.approve(click(rb.id, 'U2')));
    expect(await formationImage()).toBe(before);
    expect((await h.client.getArmadaSet('prod', 'arena')).spec.template.spec.containers[0]?.image).toBe(
      before,
    );
    expect(await vesselImage()).toBe(landed);
    expect(done.result?.lines).toContainEqual({ label: 'Not set back', value: notSetBack });
  });

  it('refuses before any write when the Formation runs another image now, naming it', async () => {
    h = await startHarness({ sim: { data: promotionWorld() } });
    const original = await promoteIntoProd();
    const landed = String(original.result?.facts.landedName);
    const other = internalImageName('prod', 'game-server', '1.0.0');
    await h.client.patchFormation('prod', 'arena', [
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: other },
    ]);
    const writes = h.sim.countRequests('PATCH', '/api/armada/v1/environments/prod');
    await expect(rollback(original.id)).rejects.toThrow(
      /^Cannot roll back change \S+: container game-server of formation arena \(prod\) now runs \S+, not the promoted game-server:1\.2\.0, set outside Harbormaster/,
    );
    expect(h.sim.countRequests('PATCH', '/api/armada/v1/environments/prod')).toBe(writes);
    expect((await h.client.getArmadaSet('prod', 'arena')).spec.template.spec.containers[0]?.image).toBe(
      landed,
    );
  });

  it('refuses, naming the image and the branch, when the image it sets back is gone (preview and apply)', async () => {
    h = await startHarness({ sim: { data: promotionWorld() } });
    const original = await promoteIntoProd();
    const old = internalImageName('prod', 'game-server', '1.0.0');
    const pending = await rollback(original.id);
    // Nothing runs the old build now (every target rolled out): retention may delete it.
    h.sim.deleteImage('prod', old);
    const refusal = new RegExp(
      `^Cannot roll back change ${original.id}: game-server:1\\.0\\.0 \\(internal name ${old}\\) is no longer in branch prod \\(deleted by the branch's image retention policy or by hand\\)`,
    );
    await expect(rollback(original.id)).rejects.toThrow(refusal);
    const writes = h.sim.countRequests('PATCH', '/api/');
    const out = await h.engine.approve(click(pending.id, 'U2'));
    expect(out.kind).toBe('failed');
    expect(out.change.error).toMatchObject({ text: expect.stringMatching(refusal) });
    expect(h.sim.countRequests('PATCH', '/api/')).toBe(writes);
    expect((await h.engine.get(original.id))?.rolledBackBy).toBeUndefined();
  });
});

describe.each([
  { kind: 'Armada', operation: 'armada.image', name: 'duel', path: 'armadas/duel', tag: '1.1.0' },
  { kind: 'ArmadaSet', operation: 'armadaset.image', name: 'arena', path: 'armadasets/arena', tag: '1.2.0' },
] as const)('an $kind image rollback whose image is gone from its branch', (f) => {
  const setImage = async (tag: string) => {
    const change = await h.engine.request({
      operation: f.operation,
      input: { environment: 'dev', name: f.name, image: 'game-server', tag },
      requester: 'U1',
      origin,
    });
    return applied(await h.engine.confirm(click(change.id)));
  };

  it('is refused at the preview and again at the apply, naming the image and the branch; nothing is written', async () => {
    h = await startHarness();
    // On 1.0.0 first (nothing else in dev runs it), then the change rolled back moves it on.
    await setImage('1.0.0');
    const original = await setImage(f.tag);
    const old = internalImageName('dev', 'game-server', '1.0.0');
    const pending = await rollback(original.id);
    expect(() => h.sim.deleteImage('dev', internalImageName('dev', 'game-server', f.tag))).toThrow(/in use/);
    h.sim.deleteImage('dev', old);
    const refusal = `Cannot roll back change ${original.id}: game-server:1.0.0 (internal name ${old}) is no longer in branch dev (deleted by the branch's image retention policy or by hand), so no game server could start from it. Nothing was changed; roll out an image the branch has as a new change (/harbor images lists them).`;
    await expect(rollback(original.id)).rejects.toThrow(refusal);
    const path = `/api/armada/v1/environments/dev/${f.path}`;
    const writes = h.sim.countRequests('PATCH', path);
    const out = await h.engine.confirm(click(pending.id));
    expect(out.kind).toBe('failed');
    expect(out.change.error).toMatchObject({ text: refusal });
    expect(h.sim.countRequests('PATCH', path)).toBe(writes);
    expect((await h.engine.get(original.id))?.rolledBackBy).toBeUndefined();
  });
});
