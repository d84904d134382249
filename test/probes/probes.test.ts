/**
 * Liveness and readiness are different questions, asked over real HTTP:
 * /livez follows the event loop's heartbeat (an injected clock) and nothing
 * else, so a Slack or database outage never restarts a pod; /readyz (and
 * /healthz) follow Slack and the store.
 */
import { afterEach, expect, it } from '@jest/globals';
import { healthRoutes, PROBE_PATHS } from '../../src/probes/health.js';
import { type OpsServer, startOpsServer } from '../../src/probes/ops-server.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { Heartbeat } from '../../src/runtime/heartbeat.js';
import { createMetrics } from '../../src/runtime/metrics.js';

let server: OpsServer | undefined;
let heartbeat: Heartbeat | undefined;
afterEach(async () => {
  heartbeat?.stop();
  await server?.close();
  server = undefined;
});

async function probe(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${server?.port}${path}`);
  return {
    status: res.status,
    body: res.headers.get('content-type')?.includes('json') ? await res.json() : null,
  };
}

async function start(o: { slack: boolean; store: 'ok' | 'down' }, clock = new ManualClock()) {
  heartbeat = new Heartbeat({ clock });
  heartbeat.start();
  const routes = healthRoutes(
    {
      slackConnected: () => o.slack,
      pingStore: async () => {
        if (o.store === 'down') throw new Error('connect ECONNREFUSED 10.0.0.5:5432');
      },
      liveness: () => heartbeat?.report() ?? { live: false, eventLoopLagMs: 0 },
    },
    createMetrics(),
  );
  server = await startOpsServer(routes, 0, '127.0.0.1');
  return clock;
}

it('stays live through a Slack and database outage, while readiness says which is down', async () => {
  await start({ slack: false, store: 'down' });
  expect(await probe(PROBE_PATHS.live)).toEqual({ status: 200, body: { live: true, eventLoopLagMs: 0 } });
  const ready = { ready: false, slack: 'disconnected', store: 'unreachable' };
  expect(await probe(PROBE_PATHS.ready)).toEqual({ status: 503, body: ready });
  expect(await probe(PROBE_PATHS.readyAlias)).toEqual({ status: 503, body: ready });
});

it('is ready when Slack is connected and the store takes a write', async () => {
  await start({ slack: true, store: 'ok' });
  const ready = { status: 200, body: { ready: true, slack: 'connected', store: 'ok' } };
  expect(await probe(PROBE_PATHS.ready)).toEqual(ready);
  expect(await probe(PROBE_PATHS.readyAlias)).toEqual(ready);
});

it('fails liveness while the event loop misses its beats by more than 10 s, and recovers when it keeps time', async () => {
  const clock = await start({ slack: true, store: 'ok' });
  await clock.advance(5_000);
  expect((await probe(PROBE_PATHS.live)).status).toBe(200);
  // Time passes but the beat's timer does not fire: a blocked or starved loop.
  clock.set(clock.now() + 12_000);
  expect(await probe(PROBE_PATHS.live)).toEqual({
    status: 503,
    body: { live: false, eventLoopLagMs: 11_000 },
  });
  // The late beat fires at last: its lateness is still reported once...
  await clock.advance(0);
  expect((await probe(PROBE_PATHS.live)).status).toBe(503);
  // ...and the next beat on time makes it live again.
  await clock.advance(1_000);
  expect(await probe(PROBE_PATHS.live)).toEqual({ status: 200, body: { live: true, eventLoopLagMs: 0 } });
});

it('answers only its own paths and only GET', async () => {
  await start({ slack: true, store: 'ok' });
  expect((await fetch(`http://127.0.0.1:${server?.port}/slack/events`, { method: 'POST' })).status).toBe(404);
  expect(
    (await fetch(`http://127.0.0.1:${server?.port}${PROBE_PATHS.live}`, { method: 'POST' })).status,
  ).toBe(405);
});
