import { expect, it } from '@jest/globals';
import nock from 'nock';
import fetch from 'node-fetch';

it('node-fetch (ESM) and nock agree under jest', async () => {
  nock('http://smoke.test').get('/x').reply(200, { ok: true });
  const res = await fetch('http://smoke.test/x');
  expect(await res.json()).toEqual({ ok: true });
});
