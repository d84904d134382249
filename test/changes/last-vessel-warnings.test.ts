/** The warnings a Formation removal's preview carries (issue 13, point 1). */
import { describe, expect, it } from '@jest/globals';
import type { Formation } from '../../src/api-shapes/resources.js';
import { lastVesselWarnings } from '../../src/changes/operations/formation.remove/operation.js';

function formation(vessels: { name: string; region: string }[]): Formation {
  return {
    apiVersion: 'formation/v1',
    kind: 'Formation',
    metadata: { name: 'arena', environment: 'prod' },
    spec: { vessels, template: { spec: { containers: [] } } },
  } as unknown as Formation;
}

describe('lastVesselWarnings', () => {
  it('warns that the only vessel of a formation leaves it with no game servers', () => {
    expect(lastVesselWarnings(formation([{ name: 'arena-1', region: 'eu' }]), 'arena-1')).toEqual([
      'arena-1 is the last vessel of formation arena: after this it runs no game servers at all.',
    ]);
  });

  it('warns about the last vessel of the formation in a region', () => {
    const f = formation([
      { name: 'arena-1', region: 'eu' },
      { name: 'arena-2', region: 'us' },
    ]);
    expect(lastVesselWarnings(f, 'arena-2')).toEqual([
      'arena-2 is the last vessel of formation arena in region us: after this arena runs no game servers there.',
    ]);
  });

  it('says nothing when another vessel serves the same region', () => {
    const f = formation([
      { name: 'arena-1', region: 'eu' },
      { name: 'arena-2', region: 'eu' },
    ]);
    expect(lastVesselWarnings(f, 'arena-1')).toEqual([]);
  });
});
