/**
 * A reconnected tail against an API that ignores tailLines (issue 12.8): it
 * must not show history again. The filter's rules on their own, then the
 * tail follower against the simulator's --log-replay mode over loopback, on
 * ManualClocks.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createGameFabricClient, type GameFabricClient } from '../../src/gamefabric/client.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { ReplayFilter } from '../../src/tails/replay-filter.js';
import { runTailStream, type TailEvent, type TailLogSource } from '../../src/tails/tail-stream.js';
import { markerText } from '../../src/tails/view-steps.js';
import { createStandaloneVessel } from '../support/standalone-vessel.js';

const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

/** Pushes every line; returns what was passed on and the verdicts. */
function feed(filter: ReplayFilter, input: readonly string[]) {
  const out: string[] = [];
  const verdicts: unknown[] = [];
  for (const line of input) {
    const step = filter.push(line);
    out.push(...step.lines);
    if (step.verdict) verdicts.push(step.verdict);
  }
  return { out, verdicts };
}

describe('ReplayFilter', () => {
  it('passes lines on until a reconnect, then drops a resend up to the last lines shown', () => {
    const f = new ReplayFilter({ memory: 3 });
    expect(feed(f, ['a', 'b', 'c', 'd']).out).toEqual(['a', 'b', 'c', 'd']);
    f.begin();
    // The whole log again, then what was written during the gap, then live lines.
    const { out, verdicts } = feed(f, ['a', 'b', 'c', 'd', 'e', 'f']);
    expect(out).toEqual(['e', 'f']);
    expect(verdicts).toEqual([{ kind: 'overlap', dropped: 4 }]);
    expect(f.holding).toBe(false);
  });

  it('finds the run even when its start repeats (the log is repetitive)', () => {
    const f = new ReplayFilter({ memory: 3 });
    feed(f, ['x', 'x', 'y']);
    f.begin();
    const { out, verdicts } = feed(f, ['x', 'x', 'x', 'y', 'z']);
    expect(out).toEqual(['z']);
    expect(verdicts).toEqual([{ kind: 'overlap', dropped: 4 }]);
  });

  it('without an overlap, passes on the newest held lines and says how many older ones it dropped', () => {
    const f = new ReplayFilter({ memory: 2, keepOnMiss: 2 });
    feed(f, ['a', 'b']);
    f.begin();
    expect(feed(f, ['p', 'q', 'r', 's']).out).toEqual([]);
    expect(f.decide()).toEqual({ lines: ['r', 's'], verdict: { kind: 'no_overlap', dropped: 2 } });
    // And it remembers them for the next reconnect.
    f.begin();
    expect(feed(f, ['r', 's', 't']).verdicts).toEqual([{ kind: 'overlap', dropped: 2 }]);
  });

  it('passes few new lines on without a verdict (the API honoured tailLines=0)', () => {
    const f = new ReplayFilter({ memory: 2, keepOnMiss: 5 });
    feed(f, ['a', 'b']);
    f.begin();
    feed(f, ['new 1']);
    expect(f.decide()).toEqual({ lines: ['new 1'] });
  });

  it('holds nothing before the first line, and stays bounded while holding', () => {
    const f = new ReplayFilter({ memory: 2, maxHeld: 10, keepOnMiss: 3 });
    f.begin();
    expect(f.holding).toBe(false);
    feed(f, ['a', 'b']);
    f.begin();
    feed(f, lines('flood', 10_000));
    expect(f.decide()).toEqual({
      lines: ['flood 9997', 'flood 9998', 'flood 9999'],
      verdict: { kind: 'no_overlap', dropped: 9997 },
    });
  });

  it('draws both verdicts into the reconnect marker', () => {
    const at = 0;
    expect(markerText({ kind: 'resumed', at, attempt: 1 })).toBe('── log stream reconnected ──');
    expect(markerText({ kind: 'resumed', at, attempt: 1, replay: { kind: 'overlap', dropped: 120 } })).toBe(
      '── log stream reconnected; 120 line(s) the API sent again were dropped, nothing is missing ──',
    );
    expect(
      markerText({ kind: 'resumed', at, attempt: 1, replay: { kind: 'no_overlap', dropped: 980 } }),
    ).toBe(
      '── log stream reconnected; the API sent 980 older line(s) without the last ones shown here, not shown; lines may be missing ──',
    );
  });
});

describe('runTailStream against an API that ignores tailLines (simulator --log-replay)', () => {
  const LOGS = '/api/formation/v1/environments/dev/vessels/tail-1/logs';
  let sim: Simulator;
  let simClock: ManualClock;
  let tailClock: ManualClock;
  let client: GameFabricClient;
  const running: AbortController[] = [];

  beforeEach(async () => {
    simClock = new ManualClock();
    tailClock = new ManualClock();
    sim = await startSimulator({ port: 0, clock: simClock, logLinesPerSecond: 0, logReplay: true });
    client = createGameFabricClient({
      baseUrl: sim.url,
      auth: { token: sim.token },
      clock: simClock,
      retry: { maxAttempts: 1 },
    });
    await createStandaloneVessel(client, 'dev', 'tail-1');
  });

  afterEach(async () => {
    for (const c of running.splice(0)) c.abort();
    await sim.stop();
  });

  /** Lines seen so far, and promises for lines still to come: tests wait on a line, not on turns. */
  function lineLog() {
    const seen: string[] = [];
    const waiting: { line: string; resolve: () => void }[] = [];
    return {
      seen,
      add(line: string) {
        seen.push(line);
        for (const w of waiting.filter((w) => w.line === line)) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve();
        }
      },
      when(line: string): Promise<void> {
        if (seen.includes(line)) return Promise.resolve();
        return new Promise<void>((resolve) => waiting.push({ line, resolve }));
      },
    };
  }

  function startTail() {
    const stop = new AbortController();
    running.push(stop);
    const shown = lineLog();
    // Lines the tail has taken from the stream, shown or held by its replay filter: the
    // wrapper resumes only when the tail asks for the next line, so the last one is handled.
    const taken = lineLog();
    const source: TailLogSource = {
      getVessel: (env, name) => client.getVessel(env, name),
      async *streamVesselLogs(env, name, opts) {
        for await (const line of client.streamVesselLogs(env, name, opts)) {
          yield line;
          taken.add(line);
        }
      },
    };
    const events: TailEvent[] = [];
    const done = runTailStream({
      client: source,
      env: 'dev',
      vessel: 'tail-1',
      clock: tailClock,
      signal: stop.signal,
      maxDurationMs: 60 * 60_000,
      backoff: { initialMs: 100, maxMs: 150 },
      random: () => 1,
      onLine: (line) => shown.add(line),
      onEvent: (event) => events.push(event),
    });
    return { stop, got: shown.seen, shown, taken, events, done };
  }

  /** Cuts the first stream after `n` lines, and waits for the tail to reconnect. */
  async function cutAndReconnect(tail: ReturnType<typeof startTail>, emit: () => void) {
    await sim.whenLogStreams(1);
    emit(); // the cut closes the stream at once (the count drops to 0)
    // After the gap event the tail parks on its backoff, beside the max-duration timer.
    await tailClock.whenSleeping(2);
    expect(tail.events.map((e) => e.kind)).toEqual(['gap']);
    await tailClock.advance(100);
    await sim.whenRequests('GET', LOGS, 2);
    await sim.whenLogStreams(1);
  }

  it('drops the resent history on reconnect, shows what was written in the gap once, and says nothing is missing', async () => {
    const history = (await client.vesselLogs('dev', 'tail-1')).length;
    sim.clearRequests();
    sim.setFaults([{ path: LOGS, cutLogStreamAfterLines: history + 1, times: 1 }]);
    const tail = startTail();
    await cutAndReconnect(tail, () => sim.emitLogLines('dev', 'tail-1', ['before-1', 'in-gap']));
    sim.emitLogLines('dev', 'tail-1', ['after-1']);
    await tail.shown.when('after-1'); // a live line after the reconnect
    // Every line once, in order: the history, the line cut off in the gap, the live one.
    expect(tail.got.slice(history)).toEqual(['before-1', 'in-gap', 'after-1']);
    expect(tail.got).toHaveLength(history + 3);
    expect(tail.events.at(-1)).toEqual({
      kind: 'resumed',
      at: tailClock.now(),
      attempt: 1,
      replay: { kind: 'overlap', dropped: history + 1 },
    });
    // The tail asked for no lines; the API sent everything anyway.
    expect(sim.requests.filter((r) => r.path === LOGS).map((r) => r.query.tailLines)).toEqual(['20', '0']);
  });

  it('when the resend no longer holds the last lines shown, keeps the newest 20 after the wait and marks the gap', async () => {
    const history = (await client.vesselLogs('dev', 'tail-1')).length;
    sim.clearRequests();
    sim.setFaults([{ path: LOGS, cutLogStreamAfterLines: history + 1, times: 1 }]);
    const tail = startTail();
    // 1500 lines in the gap: the API's log (1000 lines) no longer reaches back to what the tail showed.
    const gap = lines('gap', 1500);
    await cutAndReconnect(tail, () => sim.emitLogLines('dev', 'tail-1', ['before-1', ...gap]));
    // The whole resend (the API's last 1000 lines) has reached the replay filter; its wait
    // started with the first resent line (the max-duration timer is the other sleeper).
    await tail.taken.when('gap 1499');
    expect(tailClock.pendingSleeps).toBe(2);
    expect(tail.got.at(-1)).toBe('before-1'); // held, not shown yet
    await tailClock.advance(2000);
    await tail.shown.when('gap 1499'); // the newest held lines
    expect(tail.got.at(-1)).toBe('gap 1499');
    expect(tail.got.slice(history + 1)).toEqual(gap.slice(-20));
    expect(tail.events.at(-1)).toMatchObject({
      kind: 'resumed',
      replay: { kind: 'no_overlap', dropped: 980 },
    });
  });
});
