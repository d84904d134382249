/**
 * The tail follower against the real simulator over loopback. The simulator
 * and the tail each run on their own ManualClock; waits are for events (a
 * stream opened, a line arrived), never for wall-clock time.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createGameFabricClient, type GameFabricClient } from '../../src/gamefabric/client.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { releaseEnded, stopByUser, type TailStopReason } from '../../src/tails/stop-reason.js';
import { runTailStream, type TailEvent, type TailStreamOptions } from '../../src/tails/tail-stream.js';
import { createStandaloneVessel } from '../support/standalone-vessel.js';

const LOGS = '/api/formation/v1/environments/dev/vessels/tail-1/logs';

let sim: Simulator;
let simClock: ManualClock;
let tailClock: ManualClock;
let client: GameFabricClient;
const running: AbortController[] = [];

beforeEach(async () => {
  simClock = new ManualClock();
  tailClock = new ManualClock();
  sim = await startSimulator({ port: 0, clock: simClock, terminationMs: 2000, logLinesPerSecond: 0 });
  client = createGameFabricClient({
    baseUrl: sim.url,
    auth: { token: sim.token },
    clock: simClock,
    retry: { maxAttempts: 1 }, // reconnecting is the tail's job here
  });
  await createStandaloneVessel(client, 'dev', 'tail-1');
});

afterEach(async () => {
  for (const c of running.splice(0)) c.abort();
  await sim.stop();
});

/** Wakes the test's wait when the tail reports a line or an event. */
let tailReported: () => void = () => {};

/** Waits until `cond` on what the tail reported holds, re-checked on each report (no counting turns). */
async function tailShows(cond: () => boolean): Promise<void> {
  while (!cond()) {
    await new Promise<void>((resolve) => {
      tailReported = resolve;
    });
  }
}

function startTail(overrides: Partial<TailStreamOptions> = {}) {
  const stop = new AbortController();
  running.push(stop);
  const lines: string[] = [];
  const events: TailEvent[] = [];
  let result: TailStopReason | undefined;
  const done = runTailStream({
    client,
    env: 'dev',
    vessel: 'tail-1',
    clock: tailClock,
    signal: stop.signal,
    maxDurationMs: 60 * 60_000,
    backoff: { initialMs: 100, maxMs: 150 },
    random: () => 1, // the top of the jitter range: delays are exactly the caps
    onLine: (line) => {
      lines.push(line);
      tailReported();
    },
    onEvent: (event) => {
      events.push(event);
      tailReported();
    },
    ...overrides,
  }).then((r) => {
    result = r;
    return r;
  });
  return { stop, lines, events, done, ended: () => result !== undefined };
}

const streamOpen = () => sim.whenLogStreams(1);

describe('runTailStream against the simulator', () => {
  it('passes every line on, CRLF and escapable text included, and stops on Stop naming who', async () => {
    const tail = startTail();
    await streamOpen();
    sim.emitLogLines('dev', 'tail-1', ['hello & <world>', 'windows line\r', '']);
    await tailShows(() => tail.lines.length >= 3 && tail.lines.at(-1) === '');
    expect(tail.lines.slice(-3)).toEqual(['hello & <world>', 'windows line', '']);
    tail.stop.abort(stopByUser('U123'));
    await expect(tail.done).resolves.toEqual({ kind: 'stopped', by: 'U123' });
    await sim.whenLogStreams(0);
    expect(tailClock.pendingSleeps).toBe(0); // the max-duration timer went with it
    expect(tail.events).toEqual([]);
  });

  it('reads a fast writer without pause', async () => {
    const tail = startTail();
    await streamOpen();
    const batch = Array.from({ length: 5000 }, (_, i) => `burst ${i} ${'x'.repeat(100)}`);
    for (let i = 0; i < 4; i++) sim.emitLogLines('dev', 'tail-1', batch);
    // Counted as they come: re-filtering 20 000 lines on every report would be quadratic.
    let bursts = 0;
    let scanned = 0;
    await tailShows(() => {
      for (; scanned < tail.lines.length; scanned++) if (tail.lines[scanned]?.startsWith('burst ')) bursts++;
      return bursts === 20_000;
    });
    tail.stop.abort();
    await expect(tail.done).resolves.toEqual({ kind: 'stopped' });
  });

  it('marks a gap when the stream is cut, reconnects after the backoff and goes on', async () => {
    const recent = (await client.vesselLogs('dev', 'tail-1')).length;
    sim.clearRequests();
    sim.setFaults([{ path: LOGS, cutLogStreamAfterLines: recent + 1, times: 1 }]);
    const tail = startTail();
    await streamOpen();
    sim.emitLogLines('dev', 'tail-1', ['before-1', 'before-2']);
    await tailShows(() => tail.events.length === 1);
    expect(tail.lines).toContain('before-1');
    expect(tail.events[0]).toMatchObject({ kind: 'gap', attempt: 1, retryInMs: 100, at: tailClock.now() });
    expect((tail.events[0] as { cause: string }).cause).toMatch(/could not be reached/);

    await tailClock.advance(100);
    await streamOpen();
    expect(sim.countRequests('GET', LOGS)).toBe(2);
    sim.emitLogLines('dev', 'tail-1', ['after-1']);
    // A reconnect holds lines until the last ones shown come again or the wait ends (see replay.test.ts).
    await tailClock.whenSleeping(2);
    await tailClock.advance(2000);
    await tailShows(() => tail.lines.includes('after-1'));
    expect(tail.events.at(-1)).toMatchObject({ kind: 'resumed', attempt: 1 });
    // The reconnect asked for new lines only: nothing repeated, and what was written in the gap is lost.
    expect(tail.lines.slice(recent)).toEqual(['before-1', 'after-1']);
    const asked = sim.requests.filter((r) => r.path === LOGS).map((r) => r.query.tailLines);
    expect(asked).toEqual(['20', '0']);
    tail.stop.abort();
    await tail.done;
  });

  it('asks for initialTailLines recent lines on the first connect', async () => {
    sim.emitLogLines(
      'dev',
      'tail-1',
      Array.from({ length: 30 }, (_, i) => `old ${i}`),
    );
    const tail = startTail({ initialTailLines: 5 });
    await streamOpen();
    await tailShows(() => tail.lines.length === 5);
    sim.emitLogLines('dev', 'tail-1', ['new']);
    await tailShows(() => tail.lines.length === 6);
    expect(tail.lines).toEqual(['old 25', 'old 26', 'old 27', 'old 28', 'old 29', 'new']);
  });

  it('backs off exponentially up to the cap while connects fail, and resumes when one works', async () => {
    sim.setFaults([{ path: LOGS, dropConnection: true, times: 2 }]);
    const tail = startTail();
    await tailShows(() => tail.events.length === 1);
    await tailClock.advance(100);
    await tailShows(() => tail.events.length === 2);
    expect(tail.events.map((e) => e.kind === 'gap' && e.retryInMs)).toEqual([100, 150]);
    await tailClock.advance(150);
    await streamOpen();
    sim.emitLogLines('dev', 'tail-1', ['finally']);
    await tailShows(() => tail.lines.includes('finally'));
    expect(tail.events.at(-1)).toMatchObject({ kind: 'resumed', attempt: 2 });
  });

  it('gives up after maxReconnects reconnects without a line', async () => {
    sim.setFaults([{ path: LOGS, dropConnection: true }]);
    const tail = startTail({ maxReconnects: 2 });
    await tailShows(() => tail.events.length === 1);
    await tailClock.advance(100);
    await tailShows(() => tail.events.length === 2);
    await tailClock.advance(150);
    const reason = await tail.done;
    expect(reason).toMatchObject({ kind: 'gave_up', attempts: 2 });
    expect(sim.countRequests('GET', LOGS)).toBe(3);
  });

  it('stops with vessel_deleted when the Vessel is deleted', async () => {
    const tail = startTail();
    await streamOpen();
    await client.deleteVessel('dev', 'tail-1');
    await simClock.advance(3000); // past terminationMs: the simulator ends the stream
    await expect(tail.done).resolves.toEqual({ kind: 'vessel_deleted' });
    expect(tail.events).toEqual([]);
  });

  it('reports a Vessel that does not exist instead of retrying', async () => {
    const tail = startTail({ vessel: 'no-such-vessel' });
    await expect(tail.done).resolves.toEqual({
      kind: 'api_error',
      status: 404,
      message: 'Vessel no-such-vessel does not exist in environment dev.',
    });
    expect(tail.events).toEqual([]);
  });

  it('reports a 403 at once, without reconnecting', async () => {
    sim.setFaults([{ path: LOGS, status: 403 }]);
    const tail = startTail();
    const reason = await tail.done;
    expect(reason).toMatchObject({ kind: 'api_error', status: 403 });
    expect((reason as { message: string }).message).toMatch(/refused to show these logs \(403 Forbidden/);
    expect(sim.countRequests('GET', LOGS)).toBe(1);
  });

  it('retries a 503 like a dropped stream', async () => {
    sim.setFaults([{ path: LOGS, status: 503, times: 1 }]);
    const tail = startTail();
    await tailShows(() => tail.events.length === 1);
    expect((tail.events[0] as { cause: string }).cause).toMatch(/503/);
    await tailClock.advance(100);
    await streamOpen();
    expect(tail.ended()).toBe(false);
  });

  it('stops after the maximum duration on its clock', async () => {
    const tail = startTail({ maxDurationMs: 10 * 60_000 });
    await streamOpen();
    await tailClock.advance(10 * 60_000 - 1);
    expect(tail.ended()).toBe(false);
    await tailClock.advance(1);
    await expect(tail.done).resolves.toEqual({ kind: 'max_duration', afterMs: 10 * 60_000 });
    await sim.whenLogStreams(0);
  });

  it('lets a throwing onLine surface as a rejection (a bug in the caller, not a stream problem)', async () => {
    const tail = startTail({
      onLine: () => {
        throw new Error('ring exploded');
      },
    });
    await expect(tail.done).rejects.toThrow('ring exploded');
  });

  it('stops when the release ends, also while waiting to reconnect', async () => {
    sim.setFaults([{ path: LOGS, dropConnection: true }]);
    const tail = startTail();
    await tailShows(() => tail.events.length === 1);
    tail.stop.abort(releaseEnded('rel-7'));
    await expect(tail.done).resolves.toEqual({ kind: 'release_ended', release: 'rel-7' });
    expect(tailClock.pendingSleeps).toBe(0);
  });
});
