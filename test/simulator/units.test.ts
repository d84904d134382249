/** Unit tests of the simulator's pure parts: lifecycle, log lines, selectors, patches, overrides. */
import { describe, expect, it } from '@jest/globals';
import type { Formation } from '../../src/api-shapes/resources.js';
import { applyOverrides, desiredVessel } from '../../src/simulator/controller.js';
import { SimError } from '../../src/simulator/http-utils/status.js';
import { type VesselRecord, vesselPhase } from '../../src/simulator/lifecycle.js';
import { LineGenerator, LogBuffer } from '../../src/simulator/log-lines.js';
import { applyJsonPatch, mergePatch } from '../../src/simulator/patch.js';
import { randomUuid, seededRandom } from '../../src/simulator/random.js';
import { matches, parseSelector } from '../../src/simulator/selectors.js';

const settings = { stepMs: 100, terminationMs: 300 };

function record(extra: Partial<VesselRecord> = {}): VesselRecord {
  return {
    vessel: { metadata: { name: 'v' }, spec: { region: 'r', template: { spec: { containers: [] } } } },
    startedAt: 1000,
    createdByController: false,
    logs: new Map(),
    ...extra,
  };
}

describe('vesselPhase', () => {
  it('steps through the start sequence and stays Running', () => {
    const states = [1000, 1099, 1100, 1200, 1300, 1400, 99_999].map(
      (now) => vesselPhase(record(), now, settings)?.state,
    );
    expect(states).toEqual(['Pending', 'Pending', 'Scheduled', 'Created', 'Starting', 'Running', 'Running']);
  });

  it('shows Error with its reason, and Terminating until gone', () => {
    expect(vesselPhase(record({ error: 'No suitable site found' }), 5000, settings)).toEqual({
      state: 'Error',
      reason: 'No suitable site found',
    });
    const deleting = record({ deletedAt: 2000, deleteReason: 'UserInitiated' });
    expect(vesselPhase(deleting, 2299, settings)).toEqual({ state: 'Terminating', reason: 'UserInitiated' });
    expect(vesselPhase(deleting, 2300, settings)).toBeUndefined();
  });
});

describe('LogBuffer and LineGenerator', () => {
  it('keeps the last lines and tails', () => {
    const buffer = new LogBuffer(3);
    buffer.push(['a', 'b']);
    buffer.push(['c', 'd']);
    expect(buffer.tail()).toEqual(['b', 'c', 'd']);
    expect(buffer.tail(2)).toEqual(['c', 'd']);
    buffer.push(['1', '2', '3', '4']);
    expect(buffer.tail()).toEqual(['2', '3', '4']);
    for (let i = 0; i < 10; i++) buffer.push([`x${i}`]);
    expect(buffer.tail()).toEqual(['x7', 'x8', 'x9']);
  });

  it('generates deterministic lines with spread timestamps, some with <, > and &', () => {
    const lines = new LineGenerator('game-server', true).lines(
      8,
      Date.UTC(2026, 0, 1),
      Date.UTC(2026, 0, 1) + 800,
    );
    expect(lines[0]).toBe('2026-01-01T00:00:00.100Z INFO [game] tick=0 players=0');
    expect(lines[7]).toMatch(/^2026-01-01T00:00:00\.800Z /);
    expect(lines.some((l) => l.includes('<') && l.includes('&'))).toBe(true);
    expect(lines.some((l) => l.includes('>'))).toBe(true);
    const sidecar = new LineGenerator('metrics', false).lines(1, 0, 0);
    expect(sidecar[0]).toContain('[metrics]');
  });
});

describe('selectors', () => {
  it('parses =, == and != and ANDs them', () => {
    const reqs = parseSelector('a=1, b==2,c!=3', 'labelSelector');
    expect(reqs).toEqual([
      { key: 'a', negate: false, value: '1' },
      { key: 'b', negate: false, value: '2' },
      { key: 'c', negate: true, value: '3' },
    ]);
    const labels: Record<string, string> = { a: '1', b: '2', c: '4' };
    expect(matches(reqs, (k) => labels[k])).toBe(true);
    expect(matches(reqs, (k) => ({ ...labels, c: '3' })[k])).toBe(false);
    expect(() => parseSelector('a', 'fieldSelector')).toThrow(SimError);
  });
});

describe('patches', () => {
  it('applies JSON Patch to a copy and leaves the original alone when an operation fails', () => {
    const doc = { spec: { vessels: [{ name: 'a' }, { name: 'b' }] } };
    const ok = applyJsonPatch('Formation', doc, [{ op: 'remove', path: '/spec/vessels/0' }]);
    expect(ok).toEqual({ spec: { vessels: [{ name: 'b' }] } });
    expect(doc.spec.vessels).toHaveLength(2);
    expect(() =>
      applyJsonPatch('Formation', doc, [
        { op: 'remove', path: '/spec/vessels/0' },
        { op: 'test', path: '/spec/vessels/0/name', value: 'a' },
      ]),
    ).toThrow(
      'Formation patch operation 1 (test /spec/vessels/0/name) failed: test failed at /spec/vessels/0/name: value is "b", expected "a"; nothing was changed',
    );
    expect(doc.spec.vessels).toEqual([{ name: 'a' }, { name: 'b' }]);
  });

  it('merges per RFC 7386', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 } }, { b: { c: null, e: 4 }, f: [1] })).toEqual({
      a: 1,
      b: { d: 3, e: 4 },
      f: [1],
    });
  });
});

describe('overrides', () => {
  const formation: Formation = {
    metadata: { name: 'f', uid: 'u-1' },
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'game', branch: 'dev', image: 'img-1', args: ['--a'] },
            { name: 'side', branch: 'dev', image: 'img-2' },
          ],
        },
      },
      vessels: [{ name: 'v', region: 'r', override: { containers: [{ name: 'game', args: ['--b'] }] } }],
    },
  };

  it('replaces image and args of the named container only', () => {
    const entry = formation.spec.vessels[0] as Formation['spec']['vessels'][number];
    const result = applyOverrides(formation.spec.template as never, entry);
    expect(result.spec.containers).toEqual([
      { name: 'game', branch: 'dev', image: 'img-1', args: ['--b'] },
      { name: 'side', branch: 'dev', image: 'img-2' },
    ]);
    expect(formation.spec.template?.spec.containers[0]?.args).toEqual(['--a']);
    const vessel = desiredVessel('dev', formation, entry);
    expect(vessel.metadata.ownerReferences).toEqual([
      { apiVersion: 'formation/v1', kind: 'Formation', name: 'f', uid: 'u-1', controller: true },
    ]);
  });
});

describe('seeded ids', () => {
  it('repeats from the same seed and looks like a UUID', () => {
    const a = randomUuid(seededRandom(1));
    expect(a).toBe(randomUuid(seededRandom(1)));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
