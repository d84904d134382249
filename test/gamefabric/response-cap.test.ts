/**
 * Issue 22, point 8: the client reads at most `maxResponseBytes` of an answer.
 * A local HTTP server answers a Vessel list far larger than the cap, with and
 * without Content-Length; the client fails with an error naming the size and
 * the limit, stops reading (the server sees the connection closed before it
 * could send everything), and does not retry the oversized read.
 */
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from '@jest/globals';
import { ApiError, createGameFabricClient } from '../../src/gamefabric/client.js';
import { ManualClock } from '../../src/runtime/clock.js';

const MiB = 2 ** 20;
const CAP = 1 * MiB;
/** Far over the cap: what a server would send if the client read on. */
const HUGE = 64 * MiB;
const CHUNK = Buffer.alloc(64 * 1024, 'x');

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
  server = undefined;
});

interface Sent {
  requests: number;
  bytes: number;
  finished: Promise<boolean>;
}

/** Streams `HUGE` bytes of a JSON list to each request until the client goes away; `finished` says whether all was sent. */
async function hugeApi(withLength: boolean): Promise<{ baseUrl: string; sent: Sent }> {
  let settle: (all: boolean) => void = () => {};
  const sent: Sent = { requests: 0, bytes: 0, finished: new Promise((r) => (settle = r)) };
  server = createServer((_req, res: ServerResponse) => {
    sent.requests++;
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(withLength ? { 'content-length': String(HUGE) } : {}),
    });
    res.write('{"items":["');
    const pump = () => {
      while (sent.bytes < HUGE) {
        sent.bytes += CHUNK.length;
        if (!res.write(CHUNK)) return void res.once('drain', pump);
      }
      res.end('"]}');
      settle(true);
    };
    res.on('close', () => settle(res.writableFinished));
    pump();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent };
}

function client(baseUrl: string) {
  return createGameFabricClient({
    baseUrl,
    auth: { token: 't0ken' },
    clock: new ManualClock(0),
    random: () => 1,
    maxResponseBytes: CAP,
  });
}

it.each([
  ['without Content-Length', false],
  ['with Content-Length', true],
])('refuses an answer over the cap (%s), naming its size, and stops reading it', async (_, withLength) => {
  const { baseUrl, sent } = await hugeApi(withLength);
  const error = await client(baseUrl)
    .listVessels('dev')
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).message).toMatch(
    withLength
      ? /GET \/api\/formation\/v1\/environments\/dev\/vessels: .*answer of 64\.0 MiB is over the client's limit of 1\.0 MiB/
      : /GET \/api\/formation\/v1\/environments\/dev\/vessels: .*answer is over the client's limit of 1\.0 MiB/,
  );
  expect(await sent.finished).toBe(false);
  expect(sent.bytes).toBeLessThan(HUGE);
  expect(sent.requests).toBe(1);
});

it('reads an answer under the cap as before', async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: [] }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await expect(client(baseUrl).listVessels('dev')).resolves.toEqual([]);
});
