/**
 * Sites, Locations and the join of a fleet to its Sites through the client
 * (nock): Region -> `spec.types[].locations` -> Location `spec.sites` -> Site
 * (nitrado/terraform-provider-ec `ec/core/schema_location.go`,
 * `ec/core/schema_site.go`). Each link that cannot be read makes the Sites
 * unknown, with the reason; only a complete join of Connected, uncordoned
 * Sites is worded as such.
 */
import { describe, expect, it } from '@jest/globals';
import nock from 'nock';
import type { Armada } from '../../src/api-shapes/armada-resources.js';
import { readSitesBehind } from '../../src/changes/fleet-sites.js';
import { sitesNote } from '../../src/changes/site-join.js';
import { BASE, testClient, useNock } from './helpers.js';

useNock();

const duel = {
  metadata: { name: 'duel' },
  spec: {
    region: 'eu',
    distribution: [{ name: 'baremetal' }, { name: 'cloud' }],
    template: { spec: { containers: [] } },
  },
  status: { state: 'Degraded' },
} as unknown as Armada;

const REGION = {
  metadata: { name: 'eu' },
  spec: {
    types: [
      { name: 'baremetal', locations: ['fra'] },
      { name: 'cloud', locations: ['ams'] },
    ],
  },
};
const LOCATIONS = {
  items: [
    { metadata: { name: 'fra' }, spec: { sites: ['fra-a', 'fra-b'] } },
    { metadata: { name: 'ams' }, spec: { sites: ['ni-ams-7'] } },
  ],
};
const site = (name: string, state = 'Connected', extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { cordoned: false, ...extra },
  status: { state },
});

function api(o: { region?: number; locations?: number | object; sites?: object[] | number }) {
  const scope = nock(BASE);
  const region = scope.get('/api/core/v1/environments/dev/regions/eu');
  if (o.region) region.reply(o.region, { kind: 'Status', code: o.region });
  else region.reply(200, REGION);
  const locations = scope.get('/api/core/v1/locations');
  if (typeof o.locations === 'number') locations.reply(o.locations, { kind: 'Status', code: o.locations });
  else locations.reply(200, o.locations ?? LOCATIONS);
  const sites = scope.get('/api/core/v1/sites');
  if (typeof o.sites === 'number') sites.reply(o.sites, { kind: 'Status', code: o.sites });
  else sites.reply(200, { items: o.sites ?? [site('fra-a'), site('fra-b'), site('ni-ams-7')] });
  return scope;
}

describe('listLocations', () => {
  it('reads GET /api/core/v1/locations with spec.sites (a null list tolerated)', async () => {
    nock(BASE)
      .get('/api/core/v1/locations')
      .reply(200, {
        items: [
          { metadata: { name: 'fra' }, spec: { sites: ['fra-a'] } },
          { metadata: { name: 'x' }, spec: { sites: null } },
        ],
      });
    const { client } = testClient();
    expect((await client.listLocations()).map((l) => l.spec?.sites)).toEqual([['fra-a'], null]);
  });
});

describe('the Sites behind a Degraded fleet', () => {
  it('names a Site down that only the Location joins to the region, and no other', async () => {
    api({
      sites: [
        site('fra-a'),
        site('fra-b', 'Error', {}),
        site('ni-ams-7', 'Connected', { cordoned: true }),
        site('sfo-1', 'Error'),
      ],
    });
    const { client } = testClient();
    const reading = await readSitesBehind(client, 'dev', duel);
    expect(reading).toEqual({
      kind: 'read',
      total: 3,
      problems: [
        { name: 'fra-b', state: 'Error', cordoned: false, locations: ['fra'] },
        { name: 'ni-ams-7', state: 'Connected', cordoned: true, locations: ['ams'] },
      ],
    });
    expect(sitesNote(reading)).toBe('');
  });

  it('says every Site is Connected only when all Sites of every Location were read and are Connected, uncordoned', async () => {
    api({});
    const { client } = testClient();
    expect(sitesNote(await readSitesBehind(client, 'dev', duel))).toBe(
      'every Site of its regions (3) is Connected and not cordoned',
    );
  });

  it.each([
    [
      { locations: 403 },
      'the Sites behind it are unknown: the Locations could not be read (HTTP 403: not permitted)',
    ],
    [
      { locations: 404 },
      'the Sites behind it are unknown: the Locations could not be read (HTTP 404: not found)',
    ],
    [
      { sites: 403 },
      'the Sites behind it are unknown: the Sites could not be read (HTTP 403: not permitted)',
    ],
    [
      { region: 403 },
      'the Sites behind it are unknown: Region eu could not be read (HTTP 403: not permitted)',
    ],
    [
      { locations: { items: [LOCATIONS.items[0]] } },
      'the Sites behind it are unknown: Location ams is not in the Location list',
    ],
    [
      { sites: [site('fra-a'), site('fra-b')] },
      'the Sites behind it are unknown: Site ni-ams-7 of Location ams is not in the Site list',
    ],
  ])('says the Sites are unknown, never Connected, when the join cannot be made (%j)', async (o, words) => {
    api(o as Parameters<typeof api>[0]);
    const { client } = testClient();
    const reading = await readSitesBehind(client, 'dev', duel);
    expect(reading.kind).toBe('unknown');
    expect(sitesNote(reading)).toBe(words);
  });

  it('names no Site of a region type the fleet does not run in', async () => {
    api({ sites: [site('fra-a'), site('fra-b'), site('ni-ams-7', 'Error')] });
    const { client } = testClient();
    const bareMetalOnly = {
      ...duel,
      spec: { ...duel.spec, distribution: [{ name: 'baremetal' }] },
    } as unknown as Armada;
    expect(await readSitesBehind(client, 'dev', bareMetalOnly)).toEqual({
      kind: 'read',
      problems: [],
      total: 2,
    });
  });

  it('throws what is not a refusal (a 500 is an error, not an unknown)', async () => {
    api({ sites: 500 });
    const { client } = testClient({ retry: { maxAttempts: 1 } } as never);
    await expect(readSitesBehind(client, 'dev', duel)).rejects.toMatchObject({ status: 500 });
  });
});
