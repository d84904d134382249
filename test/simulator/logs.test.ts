import { afterEach, describe, expect, it } from '@jest/globals';
import type { Vessel } from '../../src/api-shapes/resources.js';
import {
  call,
  callJson,
  LineReader,
  type StatusBody,
  startTestSim,
  type TestSim,
  VESSELS,
  vesselPayload,
} from './helpers.js';

let t: TestSim | undefined;
afterEach(async () => {
  await t?.sim.stop();
  t = undefined;
});

async function sim(options: Parameters<typeof startTestSim>[0] = {}): Promise<TestSim> {
  t = await startTestSim({ stepMs: 1000, terminationMs: 2000, ...options });
  return t;
}

const LOGS = `${VESSELS}/lobby-1/logs`;
const TIMESTAMP = /^2026-01-01T\d\d:\d\d:\d\d\.\d{3}Z /;

describe('logs without follow', () => {
  it('returns the recent lines as text/plain and ends', async () => {
    const { sim: s } = await sim();
    const res = await call(s, LOGS);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = (await res.text()).split('\n');
    expect(lines.at(-1)).toBe(''); // newline-terminated
    expect(lines[0]).toMatch(TIMESTAMP);
    expect(lines[0]).toContain('[boot] container game-server starting');
  });

  it('returns the last N lines with tailLines, and keeps the last 1000', async () => {
    const { sim: s } = await sim();
    s.emitLogLines('dev', 'lobby-1', ['a', 'b', 'c']);
    expect(await (await call(s, `${LOGS}?tailLines=2`)).text()).toBe('b\nc\n');
    expect(await (await call(s, `${LOGS}?tailLines=0`)).text()).toBe('');
    s.emitLogLines(
      'dev',
      'lobby-1',
      Array.from({ length: 1500 }, (_, i) => `line ${i}`),
    );
    const all = (await (await call(s, LOGS)).text()).trimEnd().split('\n');
    expect(all).toHaveLength(1000);
    expect(all[0]).toBe('line 500');
    expect(all.at(-1)).toBe('line 1499');
  });

  it('selects a container, and rejects an unknown one with 400', async () => {
    const { sim: s } = await sim();
    const body: Vessel = vesselPayload('duo');
    body.spec.template.spec.containers.push({
      name: 'metrics',
      branch: 'dev',
      image: body.spec.template.spec.containers[0]?.image,
    });
    await callJson(s, VESSELS, 201, { body });
    s.emitLogLines('dev', 'duo', ['from the sidecar'], 'metrics');
    const sidecar = await (await call(s, `${VESSELS}/duo/logs?container=metrics`)).text();
    expect(sidecar.trimEnd().split('\n').at(-1)).toBe('from the sidecar');
    const main = await (await call(s, `${VESSELS}/duo/logs`)).text();
    expect(main).not.toContain('from the sidecar');
    const bad = await callJson<StatusBody>(s, `${VESSELS}/duo/logs?container=web`, 400);
    expect(bad.message).toBe(
      'container "web" is not valid for vessel "duo": choose one of [game-server, metrics]',
    );
  });

  it('answers 404 for an unknown Vessel and 400 for bad parameters', async () => {
    const { sim: s } = await sim();
    await callJson(s, `${VESSELS}/nope/logs`, 404);
    await callJson(s, `${LOGS}?follow=maybe`, 400);
    await callJson(s, `${LOGS}?tailLines=-1`, 400);
  });
});

describe('logs with follow=true', () => {
  it('streams lines pushed with emitLogLines, special characters intact', async () => {
    const { sim: s } = await sim();
    const res = await call(s, `${LOGS}?follow=true&tailLines=0`);
    expect(res.status).toBe(200);
    const reader = new LineReader(res.body);
    await s.whenLogStreams(1);
    s.emitLogLines('dev', 'lobby-1', ['<Player1> gg & wp', 'second']);
    expect(await reader.lines(2)).toEqual(['<Player1> gg & wp', 'second']);
    s.emitLogLines('dev', 'lobby-1', ['third']);
    expect(await reader.lines(1)).toEqual(['third']);
    await reader.cancel();
  });

  it('sends the recent lines first, then new ones', async () => {
    const { sim: s } = await sim();
    s.emitLogLines('dev', 'lobby-1', ['old-1', 'old-2']);
    const reader = new LineReader((await call(s, `${LOGS}?follow=true&tailLines=2`)).body);
    expect(await reader.lines(2)).toEqual(['old-1', 'old-2']);
    await s.whenLogStreams(1);
    s.emitLogLines('dev', 'lobby-1', ['new']);
    expect(await reader.lines(1)).toEqual(['new']);
    await reader.cancel();
  });

  it('generates game-server lines at the configured rate, paced by the clock', async () => {
    const { sim: s, clock } = await sim({ logLinesPerSecond: 5 });
    const reader = new LineReader((await call(s, `${LOGS}?follow=true&tailLines=0`)).body);
    await clock.whenSleeping(1);
    for (let i = 0; i < 5; i++) await clock.advance(200);
    const lines = await reader.lines(5);
    expect(lines.map((l) => l.replace(TIMESTAMP, ''))).toEqual([
      'INFO [game] tick=0 players=0',
      'DEBUG [net] rtt=21ms player=1',
      'INFO [chat] <Player2> gg & wp',
      'INFO [game] tick=3 players=4',
      'INFO [match] round=0 state=<live>',
    ]);
    expect(lines[0]).toMatch(/^2026-01-01T00:00:00\.200Z /);
    await reader.cancel();
  });

  it('does not generate lines before the Vessel is Running', async () => {
    const { sim: s, clock } = await sim({ logLinesPerSecond: 10 });
    await callJson(s, VESSELS, 201, { body: vesselPayload('fresh') });
    const reader = new LineReader((await call(s, `${VESSELS}/fresh/logs?follow=true&tailLines=0`)).body);
    await clock.whenSleeping(1);
    await clock.advance(3900); // still Starting
    s.emitLogLines('dev', 'fresh', ['marker']);
    expect(await reader.lines(1)).toEqual(['marker']);
    await clock.advance(1100); // Running for 1s
    const generated = await reader.lines(10);
    expect(generated.every((l) => TIMESTAMP.test(l))).toBe(true);
    await reader.cancel();
  });

  it('ends the response when the Vessel is deleted and has terminated', async () => {
    const { sim: s, clock } = await sim();
    await callJson(s, VESSELS, 201, { body: vesselPayload('doomed') });
    const reader = new LineReader((await call(s, `${VESSELS}/doomed/logs?follow=true&tailLines=0`)).body);
    await s.whenLogStreams(1);
    await callJson(s, `${VESSELS}/doomed`, 200, { method: 'DELETE' });
    await clock.advance(1000);
    expect(s.openLogStreams()).toBe(1); // still Terminating
    await clock.advance(1000);
    expect(await reader.rest()).toBe('');
    expect(s.openLogStreams()).toBe(0);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('frees its timer when the client disconnects', async () => {
    const { sim: s, clock } = await sim({ logLinesPerSecond: 5 });
    const abort = new AbortController();
    const res = await call(s, `${LOGS}?follow=true`, { signal: abort.signal });
    expect(res.status).toBe(200);
    await s.whenLogStreams(1);
    await clock.whenSleeping(1);
    abort.abort();
    await s.whenLogStreams(0);
    expect(clock.pendingSleeps).toBe(0);
  });

  it('streams a very high rate in big batches', async () => {
    const { sim: s, clock } = await sim({ logLinesPerSecond: 1_000_000 });
    const reader = new LineReader((await call(s, `${LOGS}?follow=true&tailLines=0`)).body);
    await clock.whenSleeping(1);
    await clock.advance(50); // one tick
    const lines = await reader.lines(50_000);
    expect(lines[49_999]).toMatch(TIMESTAMP);
    await reader.cancel();
  });

  it('ends open streams when the simulator stops', async () => {
    const { sim: s } = await sim();
    const reader = new LineReader((await call(s, `${LOGS}?follow=true&tailLines=0`)).body);
    await s.whenLogStreams(1);
    await s.stop();
    await reader.rest().catch(() => '');
    expect(s.openLogStreams()).toBe(0);
  });
});
