/**
 * Sites and Locations as the public schemas shape them (issue 38.1): a Site's
 * spec names no Location (nitrado/terraform-provider-ec `ec/core/schema_site.go`),
 * a Location lists its Sites (`spec.sites`, `ec/core/schema_location.go`),
 * served at `/api/core/v1/locations` (path inferred). A Site down makes the
 * Armadas of every Region whose types list a Location containing it Degraded,
 * whichever Site of the Location it is; Locations are refused without the
 * permission.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Armada, Location, Site } from '../../src/api-shapes/armada-resources.js';
import { REAL_SHAPES } from '../../src/simulator/real-shapes-data.js';
import { callJson, type List, type StatusBody, startTestSim, type TestSim } from './helpers.js';

let t: TestSim;
afterEach(() => t.sim.stop());

describe('the demo data', () => {
  it('serves Sites without a location and Locations listing their Sites', async () => {
    t = await startTestSim();
    const sites = await callJson<List<Site>>(t.sim, '/api/core/v1/sites', 200);
    const fra = sites.items.find((s) => s.metadata.name === 'fra-bm-1-02');
    expect(fra).toEqual({
      apiVersion: 'core/v1',
      kind: 'Site',
      metadata: { name: 'fra-bm-1-02' },
      spec: { cordoned: false },
      status: { state: 'Connected' },
    });
    expect(sites.items.every((s) => s.spec && !('location' in s.spec))).toBe(true);
    const locations = await callJson<List<Location> & { kind: string }>(t.sim, '/api/core/v1/locations', 200);
    expect(locations.kind).toBe('LocationList');
    expect(locations.items.find((l) => l.metadata.name === 'fra-bm-1')).toEqual({
      apiVersion: 'core/v1',
      kind: 'Location',
      metadata: { name: 'fra-bm-1' },
      spec: { sites: ['fra-bm-1-01', 'fra-bm-1-02'] },
    });
    expect(await callJson<Location>(t.sim, '/api/core/v1/locations/sfo-bm-1', 200)).toMatchObject({
      spec: { sites: ['sfo-bm-1-01'] },
    });
    const missing = await callJson<StatusBody>(t.sim, '/api/core/v1/locations/nowhere', 404);
    expect(missing.message).toBe('Location "nowhere" not found');
  });

  it('leaves the fleets Degraded while any Site of a Location their regions use is down', async () => {
    t = await startTestSim({ stepMs: 1000 });
    t.sim.setSite('fra-bm-1-02', { state: 'Error', reason: 'connection lost' });
    const duel = await callJson<Armada>(t.sim, '/api/armada/v1/environments/dev/armadas/duel', 200);
    expect(duel.status).toMatchObject({
      state: 'Degraded',
      reason: 'could not sync to site fra-bm-1-02 (Error: connection lost)',
    });
    // us-west uses no Location of fra-bm-1: its Armadas stay Synced.
    const us = await callJson<Armada>(t.sim, '/api/armada/v1/environments/dev/armadas/arena-us-west', 200);
    expect(us.status?.state).toBe('Synced');
    t.sim.setSite('fra-bm-1-02', undefined);
    expect(t.sim.state.getArmada('dev', 'duel')?.status?.state).toBe('Synced');
  });

  it('serves a Location a Region names but the data does not declare, with one Site', async () => {
    t = await startTestSim();
    await callJson(t.sim, '/api/core/v1/environments/dev/regions', 201, {
      body: {
        apiVersion: 'core/v1',
        kind: 'Region',
        metadata: { name: 'ap-east', environment: 'dev' },
        spec: { types: [{ name: 'cloud', locations: ['hkg-1'] }] },
      },
    });
    expect(await callJson<Location>(t.sim, '/api/core/v1/locations/hkg-1', 200)).toMatchObject({
      spec: { sites: ['hkg-1-01'] },
    });
  });

  it('refuses Locations to an account without the permission, and Sites stay readable', async () => {
    t = await startTestSim();
    t.sim.addServiceAccount({
      name: 'no-locations@demo.local',
      tokens: ['no-locations'],
      permissions: { SITES: ['GET'], REGIONS: ['GET'] },
    });
    const refused = await callJson<StatusBody>(t.sim, '/api/core/v1/locations', 403, {
      token: 'no-locations',
    });
    expect(refused.message).toContain('lacks GET permission on LOCATIONS');
    await callJson(t.sim, '/api/core/v1/sites', 200, { token: 'no-locations' });
  });
});

describe('the real-shapes data', () => {
  it('names a Site that does not carry its Location’s name: only the Location joins them', async () => {
    t = await startTestSim({ realShapes: true });
    const locations = await callJson<List<Location>>(t.sim, '/api/core/v1/locations', 200);
    expect(locations.items.find((l) => l.metadata.name === 'ams-bm-1')?.spec?.sites).toEqual([
      REAL_SHAPES.unrelatedSite,
    ]);
    t.sim.setSite(REAL_SHAPES.unrelatedSite, { state: 'Error', reason: 'maintenance' });
    expect(t.sim.state.getArmada('dev', 'duel')?.status).toMatchObject({
      state: 'Degraded',
      reason: `could not sync to site ${REAL_SHAPES.unrelatedSite} (Error: maintenance)`,
    });
  });
});
