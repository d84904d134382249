import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Image, ImagePromotion } from '../../src/api-shapes/resources.js';
import {
  call,
  callJson,
  IMAGES,
  type InvalidBody,
  img,
  type List,
  PROMOTIONS,
  type StatusBody,
  startTestSim,
  type TestSim,
} from './helpers.js';

let t: TestSim;
beforeEach(async () => {
  t = await startTestSim();
});
afterEach(() => t.sim.stop());

function promotion(name: string, target: string, source: string, imageName: string) {
  return {
    apiVersion: 'container/v1',
    kind: 'ImagePromotion',
    metadata: { name, branch: target },
    spec: { branch: source, imageName },
  };
}

describe('GET images', () => {
  it('lists the images of a branch under stable internal names', async () => {
    const body = await callJson<List<Image>>(t.sim, `${IMAGES}/dev`, 200);
    const pairs = body.items.map((i) => `${i.spec.image}:${i.spec.tag}`).sort();
    expect(pairs).toEqual([
      'game-server:1.0.0',
      'game-server:1.1.0',
      'game-server:1.2.0',
      'sidecar-metrics:0.3.0',
    ]);
    for (const item of body.items) {
      expect(item.metadata.name).toMatch(/^img-[0-9a-f]{8}$/);
      expect(item.metadata.name).toBe(img('dev', item.spec.image, item.spec.tag));
      expect(item.metadata.branch).toBe('dev');
    }
  });

  it('ANDs fieldSelector pairs on spec.image and spec.tag', async () => {
    const one = await callJson<List<Image>>(
      t.sim,
      `${IMAGES}/dev?fieldSelector=spec.image=game-server,spec.tag=1.2.0`,
      200,
    );
    expect(one.items.map((i) => i.metadata.name)).toEqual([img('dev', 'game-server', '1.2.0')]);
    const three = await callJson<List<Image>>(
      t.sim,
      `${IMAGES}/dev?fieldSelector=spec.image%3Dgame-server`,
      200,
    );
    expect(three.items).toHaveLength(3);
    const notTag = await callJson<List<Image>>(
      t.sim,
      `${IMAGES}/dev?fieldSelector=spec.image=game-server,spec.tag!=1.0.0`,
      200,
    );
    expect(notTag.items).toHaveLength(2);
  });

  it('answers items: [] when nothing matches', async () => {
    const body = await callJson<List<Image>>(
      t.sim,
      `${IMAGES}/dev?fieldSelector=spec.image=game-server,spec.tag=9.9.9`,
      200,
    );
    expect(body.items).toEqual([]);
  });

  it('rejects an unsupported field with 400 naming it', async () => {
    const body = await callJson<StatusBody>(t.sim, `${IMAGES}/dev?fieldSelector=spec.digest=abc`, 400);
    expect(body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
    expect(body.message).toContain('spec.digest');
  });

  it('rejects a malformed selector with 400', async () => {
    const body = await callJson<StatusBody>(t.sim, `${IMAGES}/dev?fieldSelector=spec.image`, 400);
    expect(body.message).toContain('key=value');
  });

  it('answers 404 Status for an unknown branch', async () => {
    const body = await callJson(t.sim, `${IMAGES}/staging`, 404);
    expect(body).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'branch "staging" not found' });
  });
});

describe('POST imagepromotions', () => {
  const source = img('dev', 'game-server', '1.2.0');

  it('copies the image into the target branch under a new internal name', async () => {
    const created = await callJson<ImagePromotion>(t.sim, `${PROMOTIONS}/prod`, 201, {
      body: promotion('5b0f7f52-0000-4000-8000-000000000001', 'prod', 'dev', source),
    });
    expect(created.kind).toBe('ImagePromotion');
    const copy = img('prod', 'game-server', '1.2.0');
    expect(copy).not.toBe(source);
    expect(created.status).toEqual({ state: 'Succeeded', imageName: copy });

    const found = await callJson<List<Image>>(
      t.sim,
      `${IMAGES}/prod?fieldSelector=spec.image=game-server,spec.tag=1.2.0`,
      200,
    );
    expect(found.items.map((i) => [i.metadata.name, i.metadata.branch])).toEqual([[copy, 'prod']]);
    expect(t.sim.state.listImages('dev')).toHaveLength(4); // the source is untouched

    const again = await callJson<ImagePromotion>(
      t.sim,
      `${PROMOTIONS}/prod/5b0f7f52-0000-4000-8000-000000000001`,
      200,
    );
    expect(again.metadata.name).toBe('5b0f7f52-0000-4000-8000-000000000001');
  });

  it('answers 409 AlreadyExists for a second POST with the same metadata.name', async () => {
    const body = promotion('5b0f7f52-0000-4000-8000-000000000002', 'prod', 'dev', source);
    await callJson(t.sim, `${PROMOTIONS}/prod`, 201, { body });
    const second = await callJson(t.sim, `${PROMOTIONS}/prod`, 409, { body });
    expect(second).toMatchObject({ kind: 'Status', reason: 'AlreadyExists', code: 409 });
  });

  it('keeps one object when the target already has that image:tag', async () => {
    await callJson(t.sim, `${PROMOTIONS}/prod`, 201, {
      body: promotion('p-1', 'prod', 'dev', img('dev', 'game-server', '1.0.0')),
    });
    const found = t.sim.state.listImages('prod').filter((i) => i.spec.tag === '1.0.0');
    expect(found).toHaveLength(1);
  });

  it('answers 404 Status when the source image or branch does not exist', async () => {
    const missing = await callJson<StatusBody>(t.sim, `${PROMOTIONS}/prod`, 404, {
      body: promotion('p-2', 'prod', 'dev', 'img-00000000'),
    });
    expect(missing).toMatchObject({ kind: 'Status', reason: 'NotFound' });
    expect(missing.message).toBe('image "img-00000000" not found in branch "dev"');
    const branch = await callJson<StatusBody>(t.sim, `${PROMOTIONS}/prod`, 404, {
      body: promotion('p-3', 'prod', 'qa', source),
    });
    expect(branch.message).toBe('branch "qa" not found');
    await callJson(t.sim, `${PROMOTIONS}/qa`, 404, { body: promotion('p-4', 'qa', 'dev', source) });
  });

  it.each([
    ['kind', { kind: 'Promotion' }, 'kind'],
    ['apiVersion', { apiVersion: 'container/v2' }, 'apiVersion'],
    ['metadata.branch', { metadata: { name: 'p-5', branch: 'dev' } }, 'metadata.branch'],
    ['metadata.name', { metadata: { branch: 'prod' } }, 'metadata.name'],
    ['spec.imageName', { spec: { branch: 'dev' } }, 'spec.imageName'],
    ['spec.branch', { spec: { imageName: source } }, 'spec.branch'],
  ])('answers 422 Invalid naming %s', async (_label, change, field) => {
    const body = { ...promotion('p-5', 'prod', 'dev', source), ...change };
    const res = await callJson<InvalidBody>(t.sim, `${PROMOTIONS}/prod`, 422, { body });
    expect(res).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
    expect(res.details.causes.map((c) => c.field)).toContain(field);
    expect(res.message).toContain(`${field}:`);
  });

  it('answers 415 for a non-JSON media type and 400 for malformed JSON', async () => {
    const wrongType = await call(t.sim, `${PROMOTIONS}/prod`, {
      body: 'a=b',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(wrongType.status).toBe(415);
    const broken = await callJson<StatusBody>(t.sim, `${PROMOTIONS}/prod`, 400, { body: '{"kind":' });
    expect(broken.message).toContain('not valid JSON');
  });
});
