import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { Image, ImagePromotion } from '../../src/api-shapes/resources.js';
import { ApiError, ImageNotFoundError } from '../../src/gamefabric/client.js';
import { escapeSelectorValue } from '../../src/gamefabric/images.js';
import { api, BASE, exactly, status, TOKEN, testClient, useNock } from './helpers.js';

const IMAGES = '/api/container/v1/images/scopes';
const PROMOTIONS = '/api/container/v1/imagepromotions/scopes';
const UUID = '0f8c2c6e-5d0b-4a57-9a77-1f0c5e0a1b2c';

useNock();

function image(name: string, img: string, tag: string, branch = 'dev'): Image {
  return { apiVersion: 'container/v1', kind: 'Image', metadata: { name, branch }, spec: { image: img, tag } };
}

const expectedPromotion: ImagePromotion = {
  apiVersion: 'container/v1',
  kind: 'ImagePromotion',
  metadata: { name: UUID, branch: 'prod' },
  spec: { branch: 'dev', imageName: 'img-7f3a' },
};

describe('listImages (endpoint 1)', () => {
  it('lists a branch without a selector', async () => {
    const scope = api()
      .get(`${IMAGES}/dev`)
      .query((q) => Object.keys(q).length === 0)
      .reply(200, { items: [image('img-1', 'game', '1.0'), image('img-2', 'game', '1.1')] });
    const { client } = testClient();
    const images = await client.listImages('dev');
    expect(images.map((i) => i.metadata.name)).toEqual(['img-1', 'img-2']);
    scope.done();
  });

  it('ANDs image and tag in one fieldSelector', async () => {
    const scope = api()
      .get(`${IMAGES}/dev`)
      .query({ fieldSelector: 'spec.image=game,spec.tag=1.0' })
      .reply(200, { items: [image('img-1', 'game', '1.0')] });
    const { client } = testClient();
    await expect(client.listImages('dev', { image: 'game', tag: '1.0' })).resolves.toHaveLength(1);
    scope.done();
  });

  it('selects by tag alone', async () => {
    const scope = api()
      .get(`${IMAGES}/dev`)
      .query({ fieldSelector: 'spec.tag=latest' })
      .reply(200, { items: [] });
    const { client } = testClient();
    await expect(client.listImages('dev', { tag: 'latest' })).resolves.toEqual([]);
    scope.done();
  });

  it('escapes selector syntax inside values', () => {
    expect(escapeSelectorValue('a,b=c\\d')).toBe('a\\,b\\=c\\\\d');
  });
});

describe('findImage', () => {
  it('returns the first match', async () => {
    api()
      .get(`${IMAGES}/dev`)
      .query({ fieldSelector: 'spec.image=game,spec.tag=1.0' })
      .reply(200, { items: [image('img-1', 'game', '1.0')] });
    const { client } = testClient();
    await expect(client.findImage('dev', 'game', '1.0')).resolves.toMatchObject({
      metadata: { name: 'img-1' },
    });
  });

  it('throws ImageNotFoundError on an empty match', async () => {
    api().get(`${IMAGES}/dev`).query(true).reply(200, { items: [] });
    const { client } = testClient();
    const error = await client.findImage('dev', 'game-server', '1.9.9').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageNotFoundError);
    expect(error).toMatchObject({
      image: 'game-server',
      tag: '1.9.9',
      branch: 'dev',
      message: 'no such image game-server:1.9.9 in branch dev',
    });
  });
});

describe('promoteImage (seed rule 4)', () => {
  it('looks the image up in the source branch and posts the promotion to the target branch', async () => {
    const lookup = api()
      .get(`${IMAGES}/dev`)
      .query({ fieldSelector: 'spec.image=game-server,spec.tag=1.2.0' })
      .reply(200, {
        items: [image('img-7f3a', 'game-server', '1.2.0'), image('img-other', 'game-server', '1.2.0')],
      });
    const post = nock(BASE, {
      reqheaders: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${TOKEN}`,
      },
    })
      .post(`${PROMOTIONS}/prod`, exactly(expectedPromotion))
      .reply(201, { ...expectedPromotion, status: { phase: 'Pending' } });
    const { client } = testClient();
    const result = await client.promoteImage({
      image: 'game-server',
      tag: '1.2.0',
      sourceBranch: 'dev',
      targetBranch: 'prod',
      promotionName: UUID,
    });
    expect(result).toEqual({
      imageName: 'img-7f3a',
      alreadyExisted: false,
      promotion: { ...expectedPromotion, status: { phase: 'Pending' } },
    });
    lookup.done();
    post.done();
  });

  it('stops with ImageNotFoundError before posting anything', async () => {
    api().get(`${IMAGES}/dev`).query(true).reply(200, { items: [] });
    const { client } = testClient();
    await expect(
      client.promoteImage({
        image: 'nope',
        tag: '0',
        sourceBranch: 'dev',
        targetBranch: 'prod',
        promotionName: UUID,
      }),
    ).rejects.toThrow('no such image nope:0 in branch dev');
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('retries the POST with the same name and takes a 409 AlreadyExists on the retry as done', async () => {
    api()
      .get(`${IMAGES}/dev`)
      .query(true)
      .reply(200, { items: [image('img-7f3a', 'game-server', '1.2.0')] });
    // The first attempt reached the service but its answer was lost; the retry finds our own promotion.
    api().post(`${PROMOTIONS}/prod`, exactly(expectedPromotion)).reply(503);
    api()
      .post(`${PROMOTIONS}/prod`, exactly(expectedPromotion))
      .reply(409, status(409, 'AlreadyExists', `imagepromotions "${UUID}" already exists`));
    // "Already exists" counts only once a read shows that promotion is ours.
    api().get(`${PROMOTIONS}/prod/${UUID}`).reply(200, expectedPromotion);
    const { client, clock } = testClient();
    const result = await client.promoteImage({
      image: 'game-server',
      tag: '1.2.0',
      sourceBranch: 'dev',
      targetBranch: 'prod',
      promotionName: UUID,
    });
    expect(result).toEqual({ imageName: 'img-7f3a', alreadyExisted: true, promotion: expectedPromotion });
    expect(clock.sleeps).toEqual([200]);
    expect(nock.isDone()).toBe(true);
  });

  it('retries the POST after a network failure', async () => {
    api().post(`${PROMOTIONS}/prod`).replyWithError('socket hang up');
    api().post(`${PROMOTIONS}/prod`, exactly(expectedPromotion)).reply(201, expectedPromotion);
    const { client } = testClient();
    await expect(client.createImagePromotion(expectedPromotion)).resolves.toEqual({
      promotion: expectedPromotion,
      alreadyExisted: false,
    });
  });
});

describe('createImagePromotion (endpoint 2)', () => {
  it('fills kind and apiVersion and posts to metadata.branch', async () => {
    const scope = api().post(`${PROMOTIONS}/prod`, exactly(expectedPromotion)).reply(201, expectedPromotion);
    const { client } = testClient();
    await client.createImagePromotion({ ...expectedPromotion, apiVersion: '' });
    scope.done();
  });

  it('passes on a bare 409 (no Status body) instead of taking it for "already exists" (issue 9 defect 4)', async () => {
    api().post(`${PROMOTIONS}/prod`).reply(409, 'Conflict', { 'content-type': 'text/plain' });
    const { client } = testClient();
    await expect(client.createImagePromotion(expectedPromotion)).rejects.toMatchObject({ status: 409 });
  });

  it('passes on a 409 AlreadyExists when a read does not show the same promotion', async () => {
    api()
      .post(`${PROMOTIONS}/prod`)
      .reply(409, status(409, 'AlreadyExists', `imagepromotions "${UUID}" already exists`));
    api()
      .get(`${PROMOTIONS}/prod/${UUID}`)
      .reply(200, { ...expectedPromotion, spec: { ...expectedPromotion.spec, imageName: 'img-other' } });
    const { client } = testClient();
    await expect(client.createImagePromotion(expectedPromotion)).rejects.toMatchObject({
      status: 409,
      reason: 'AlreadyExists',
    });
  });

  it('passes on a 409 that is not AlreadyExists', async () => {
    api()
      .post(`${PROMOTIONS}/prod`)
      .reply(409, status(409, 'Conflict', 'promotion in progress'));
    const { client } = testClient();
    const error = await client.createImagePromotion(expectedPromotion).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, reason: 'Conflict' });
  });

  it('needs a target branch', async () => {
    const { client } = testClient();
    await expect(
      client.createImagePromotion({ ...expectedPromotion, metadata: { name: UUID } }),
    ).rejects.toThrow('metadata.branch');
  });
});

describe('getImagePromotion', () => {
  it('reads one promotion by name in its target branch', async () => {
    const scope = api().get(`${PROMOTIONS}/prod/${UUID}`).reply(200, expectedPromotion);
    const { client } = testClient();
    await expect(client.getImagePromotion('prod', UUID)).resolves.toEqual(expectedPromotion);
    scope.done();
  });

  it('answers a 404 ApiError when the promotion never happened', async () => {
    api()
      .get(`${PROMOTIONS}/prod/${UUID}`)
      .reply(404, { kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404, message: 'not found' });
    const { client } = testClient();
    const err = await client.getImagePromotion('prod', UUID).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, reason: 'NotFound' });
  });
});
