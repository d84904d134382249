/**
 * A worker replica (HARBOR_ROLE=worker) serves the probes and /metrics a
 * Slack replica serves, asked over real HTTP on loopback as the kubelet and
 * Prometheus would: ready while its store answers and the hosting API is
 * configured, 503 naming the store once it is gone; live while its event loop
 * keeps time and its housekeeping loops keep ending passes (on the worker's
 * ManualClock: a stale heartbeat is time moved past it, no sleeping); the
 * core's series on /metrics and none of Slack's. On stop, readiness turns 503
 * first, the lifecycle stops, and only then the server closes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { PROBE_PATHS } from '../../src/probes/health.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { createMemoryLogger } from '../../src/runtime/logger.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { HOUSEKEEPING_STALE_MS } from '../../src/startup/housekeeping-beats.js';
import { type RunningWorker, startWorker } from '../../src/startup/start-worker.js';
import { storeKinds } from '../changes/harness.js';
import { sample } from '../support/metrics-text.js';
import { e2eConfig } from './slack/bot-harness.js';
import { pgStore } from './slack/pg-schema.js';

let sim: Simulator | undefined;
let dataDir: string | undefined;
let worker: RunningWorker | undefined;
let dropSchema: () => Promise<void> = async () => {};
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  await sim?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await dropSchema();
  dropSchema = async () => {};
});

/** Starts a worker alone on the simulator, its probes on an ephemeral loopback port; `clock` drives its core. */
async function start(kind: 'sqlite' | 'postgres' = 'sqlite', clock = new ManualClock(Date.now())) {
  sim = await startSimulator({ port: 0 });
  dataDir = await mkdtemp(join(tmpdir(), 'harbor-worker-probes-'));
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    const db = await pgStore();
    databaseUrl = db.url;
    dropSchema = db.drop;
  }
  const config = await e2eConfig({
    slackApiUrl: 'http://127.0.0.1:9/unused',
    sim,
    dataDir,
    replicaId: 'worker-1',
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  worker = await startWorker(
    { ...config, role: 'worker', slack: { ...config.slack, host: '127.0.0.1' } },
    createMemoryLogger(),
    // The event loop's heartbeat on a clock nobody moves: its lag stays 0, what moves is housekeeping's.
    { clock, probeClock: new ManualClock() },
  );
  return { worker, clock };
}

async function probe(path: string): Promise<{ status: number; body: unknown; text: string }> {
  const res = await fetch(`http://127.0.0.1:${worker?.port}${path}`);
  const text = await res.text();
  return {
    status: res.status,
    body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null,
    text,
  };
}

describe.each(storeKinds)('a worker on %s: readiness', (kind) => {
  it('is ready while the store answers and the hosting API is configured, and 503 naming the store once it is gone', async () => {
    const { worker } = await start(kind);
    const ready = { status: 200, body: { ready: true, api: 'configured', store: 'ok' } };
    expect(await probe(PROBE_PATHS.ready)).toMatchObject(ready);
    expect(await probe(PROBE_PATHS.readyAlias)).toMatchObject(ready);

    // The store goes away under the running worker, as a lost database would.
    await worker.core.store.close();
    expect(await probe(PROBE_PATHS.ready)).toMatchObject({
      status: 503,
      body: { ready: false, api: 'configured', store: 'unreachable' },
    });
    // Unready, not dead: a database outage restarts no pod.
    expect((await probe(PROBE_PATHS.live)).status).toBe(200);
  });
});

describe('a worker', () => {
  it('fails liveness once its housekeeping loops have not ended a pass for too long, and is live again after the next', async () => {
    const { worker, clock } = await start();
    expect(await probe(PROBE_PATHS.live)).toEqual({
      status: 200,
      body: {
        live: true,
        eventLoopLagMs: 0,
        sinceLastPassMs: { lifecycle: 0, scheduler: 0 },
        staleAfterMs: HOUSEKEEPING_STALE_MS,
      },
      text: expect.any(String),
    });

    // Time passes and no pass ends: a wedged loop (the loops' own timers run on real time, not this clock).
    await clock.advance(HOUSEKEEPING_STALE_MS + 1);
    const stale = await probe(PROBE_PATHS.live);
    expect(stale.status).toBe(503);
    expect(stale.body).toMatchObject({
      live: false,
      eventLoopLagMs: 0,
      sinceLastPassMs: { lifecycle: HOUSEKEEPING_STALE_MS + 1 },
    });
    // Readiness asks other questions: the store and the API are fine.
    expect((await probe(PROBE_PATHS.ready)).status).toBe(200);

    await worker.core.housekeepNow();
    expect(await probe(PROBE_PATHS.live)).toMatchObject({
      status: 200,
      body: { live: true, sinceLastPassMs: { lifecycle: 0, scheduler: 0 } },
    });
  });

  it("serves the core's series on /metrics, housekeeping's among them, and none of Slack's", async () => {
    const { worker, clock } = await start();
    await worker.core.housekeepNow();
    const res = await probe(PROBE_PATHS.metrics);
    expect(res.status).toBe(200);
    const text = res.text;
    for (const name of [
      'harbor_build_info',
      'harbor_api_calls_total',
      'harbor_api_seconds',
      'harbor_housekeeping_passes_total',
      'harbor_housekeeping_pass_seconds',
      'harbor_housekeeping_last_pass_timestamp_seconds',
      'harbor_guard_passes_total',
    ])
      expect(text).toContain(`# TYPE ${name} `);
    // The first pass at start and the one asked for.
    expect(sample(text, 'harbor_housekeeping_passes_total', { loop: 'lifecycle', outcome: 'ok' })).toBe(2);
    expect(
      sample(text, 'harbor_housekeeping_pass_seconds_count', { loop: 'scheduler' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'harbor_housekeeping_last_pass_timestamp_seconds', { loop: 'lifecycle' })).toBe(
      clock.now() / 1000,
    );
    expect(sample(text, 'harbor_guard_passes_total', { outcome: 'ok' })).toBe(2);
    // No drawing loop without a surface, and no series a replica without Slack cannot have.
    expect(
      sample(text, 'harbor_housekeeping_passes_total', { loop: 'drawing', outcome: 'ok' }),
    ).toBeUndefined();
    expect(text).not.toMatch(/slack/i);
    for (const name of [
      'harbor_commands_total',
      'harbor_interactions_total',
      'harbor_ack_seconds',
      'harbor_handle_seconds',
      'harbor_errors_total',
      'harbor_requests_shed_total',
      'harbor_watch_events_total',
      'harbor_tail_budget',
    ])
      expect(text).not.toContain(name);
  });

  it('on stop turns readiness 503 first, then stops the lifecycle, and closes the server last', async () => {
    const { worker: w } = await start();
    // The lifecycle's stop is held open, so what the probes say meanwhile can be asked.
    let letStop: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      letStop = resolve;
    });
    let lifecycleStopped = false;
    const stopCore = w.core.stop;
    w.core.stop = async () => {
      await held;
      await stopCore();
      lifecycleStopped = true;
    };
    const stopping = w.stop();
    expect(await probe(PROBE_PATHS.ready)).toMatchObject({
      status: 503,
      body: { ready: false, store: 'ok', draining: true },
    });
    expect(lifecycleStopped).toBe(false);
    letStop();
    await stopping;
    expect(lifecycleStopped).toBe(true);
    await expect(fetch(`http://127.0.0.1:${w.port}${PROBE_PATHS.live}`)).rejects.toThrow();
    // Stopped here: afterEach has nothing left to stop.
    worker = undefined;
  });
});
