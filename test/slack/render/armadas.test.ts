/**
 * The armada list within Slack's limits: 200 armadas are summarised (every
 * fleet counted in the summary, problems first, cut between fleets with
 * "… and N more", never inside one) and the show answer stays in bounds with
 * names and reasons at their longest.
 */
import { describe, expect, it } from '@jest/globals';
import type { ArmadasView, FleetView } from '../../../src/changes/armada-queries.js';
import { messageProblems } from '../../../src/slack/limits.js';
import { renderArmadas, renderFleet } from '../../../src/slack/render/armadas.js';

function fleet(i: number, over: Partial<FleetView> = {}): FleetView {
  return {
    kind: 'Armada',
    name: `armada-${String(i).padStart(3, '0')}`,
    regions: ['eu-central'],
    types: [
      {
        region: 'eu-central',
        type: 'baremetal',
        minReplicas: 2,
        bufferSize: 2,
        maxReplicas: 10,
        dynamicBuffer: false,
        replicas: 3,
        readyReplicas: 2,
        allocatedReplicas: 1,
      },
      {
        region: 'eu-central',
        type: 'cloud',
        minReplicas: 0,
        bufferSize: 2,
        maxReplicas: 20,
        dynamicBuffer: false,
      },
    ],
    containers: [{ name: 'game-server', branch: 'prod', image: 'game-server:1.2.0' }],
    state: 'Synced',
    totals: { replicas: 3, readyReplicas: 2, allocatedReplicas: 1 },
    updaters: [],
    ...over,
  };
}

describe('renderArmadas', () => {
  it('summarises 200 armadas within the limits, problems first, cut between fleets', () => {
    const fleets = Array.from({ length: 200 }, (_, i) =>
      fleet(
        i,
        i === 150 ? { state: 'Degraded', reason: 'container "game-server": image "x" not found' } : {},
      ),
    );
    const message = renderArmadas({ environment: 'prod', fleets, updatersKnown: true } satisfies ArmadasView);
    expect(messageProblems(message)).toEqual([]);
    expect(message.text).toBe('200 armadas and 0 ArmadaSets in environment *prod*: 199 Synced, 1 Degraded');
    const sections = message.blocks
      .filter((b) => b.type === 'section')
      .map((b) => (b as { text: { text: string } }).text.text);
    expect(sections[0]?.startsWith('*armada-150*')).toBe(true);
    const last = sections.at(-1) ?? '';
    expect(last).toMatch(/… and \d+ more$/);
    // Every shown fleet is whole: its two type lines follow it.
    for (const s of sections) {
      const body = s.replace(/\n… and \d+ more$/, '');
      const heads = body.split('\n').filter((l) => l.startsWith('*')).length;
      expect(body.split('\n').filter((l) => l.startsWith('    `')).length).toBe(heads * 2);
    }
  });

  it('says when ImageUpdaters could not be read', () => {
    const message = renderArmadas({
      environment: 'dev',
      fleets: [fleet(1, { updaters: undefined })],
      updatersKnown: false,
    });
    expect(JSON.stringify(message.blocks)).toContain('ImageUpdaters could not be read');
    expect(JSON.stringify(message.blocks)).toContain('ImageUpdaters unknown');
  });

  it('answers an environment without armadas plainly', () => {
    expect(renderArmadas({ environment: 'dev', fleets: [], updatersKnown: true }).text).toBe(
      'No armadas in environment *dev*.',
    );
  });
});

describe('renderFleet', () => {
  it('stays within the limits with very long names, reasons and many region types', () => {
    const long = 'x'.repeat(5000);
    const types = Array.from({ length: 300 }, (_, i) => ({
      region: `r-${i}`,
      type: `type-${i}-${long}`,
      minReplicas: 1,
      bufferSize: 1,
      maxReplicas: 2,
      dynamicBuffer: i % 2 === 0,
    }));
    const view = fleet(1, {
      kind: 'ArmadaSet',
      name: long,
      description: long,
      reason: long,
      state: 'Degraded',
      types,
      owned: types.map((t) => ({ region: t.region, name: long, state: 'Degraded', reason: long })),
      containers: Array.from({ length: 50 }, (_, i) => ({ name: `c${i}`, image: long, internalName: long })),
      updaters: [long, long],
      strategy: { maxSurge: long },
    });
    expect(messageProblems(renderFleet('prod', view))).toEqual([]);
  });

  it('marks a drained region type', () => {
    const view = fleet(1, {
      types: [
        { region: 'eu', type: 'cloud', minReplicas: 0, bufferSize: 0, maxReplicas: 0, dynamicBuffer: false },
      ],
    });
    expect(JSON.stringify(renderFleet('dev', view).blocks)).toContain('max 0 · _drained_');
  });
});
