/**
 * The demo world as the real API shapes it: everything the client
 * must tolerate and the seed does not show. Built on the demo data so the same
 * commands work against both. What each oddity models and where it comes from
 * is listed in docs/gamefabric-compatibility.md.
 */
import type { Image, Region } from '../api-shapes/resources.js';
import { demoData, location } from './demo-data.js';
import { makeImage } from './images.js';
import type { SimulatorData } from './types.js';

/** Names the real-shapes tests refer to. */
export const REAL_SHAPES = {
  /** dev holds two Image objects for this image:tag; the newer one counts. */
  duplicatedImage: { image: 'game-server', tag: '1.2.0' },
  olderImageName: 'game-server-1-2-0-aaaaa',
  newerImageName: 'game-server-1-2-0-bbbbb',
  /** A dev region whose only type has no locations: its Vessels stay in Error. */
  noSiteRegion: 'ap-south',
  errorVessel: 'stray-1',
  /** A Site whose name does not carry its Location's (`ams-bm-1`): only the Location's `spec.sites` joins them. */
  unrelatedSite: 'ni-ams-bm-07',
} as const;

function stamped(image: Image, name: string, createdTimestamp: string, digest: string): Image {
  return {
    ...image,
    metadata: { ...image.metadata, name, createdTimestamp },
    spec: { ...image.spec, digest },
  };
}

/** A fresh copy of the real-shapes demo data. */
export function realShapesData(): SimulatorData {
  const data = demoData();
  const dev = data.branches.dev ?? [];
  const base = makeImage('dev', 'game-server', '1.2.0');
  data.branches.dev = [
    ...dev.filter((i) => i.spec.tag !== '1.2.0'),
    // Listed older-first by name but created later: "first item" would pick the wrong one.
    stamped(base, REAL_SHAPES.newerImageName, '2025-06-01T10:00:00Z', 'sha256:'.padEnd(71, 'b')),
    stamped(base, REAL_SHAPES.olderImageName, '2025-01-01T10:00:00Z', 'sha256:'.padEnd(71, 'a')),
  ];
  // A branch that is neither default, for promotions that need no approval.
  data.branches.qa = [];
  data.branchDisplayNames = { ...data.branchDisplayNames, qa: 'Quality Assurance' };
  const devEnv = data.environments.dev ?? {};
  const lobby = devEnv.formations?.[0];
  const gameServer = lobby?.spec.template?.spec.containers[0];
  if (gameServer) {
    // A Passthrough port: no containerPort or protocol, as the real API may return it.
    gameServer.ports = [{ name: 'game', policy: 'Passthrough' }];
  }
  const region = devEnv.regions?.[0] as Region | undefined;
  if (region) {
    // A type without a template, one with an empty scheduling, and a field the bot does not model.
    region.spec.types = [
      { name: 'baremetal', locations: ['fra-bm-1', 'ams-bm-1'] },
      { name: 'cloud', locations: ['fra-cloud-1'], template: { scheduling: '' as never } },
    ];
    // The real Region's `spec.allocator` is a string; the value here is illustrative.
    (region.spec as Record<string, unknown>).allocator = 'default';
  }
  devEnv.regions = [
    ...(devEnv.regions ?? []),
    {
      apiVersion: 'core/v1',
      kind: 'Region',
      metadata: { name: REAL_SHAPES.noSiteRegion, environment: 'dev' },
      spec: { displayName: 'AP South', types: [{ name: 'cloud', locations: [] }] },
    },
  ];
  devEnv.vessels = [
    {
      apiVersion: 'formation/v1',
      kind: 'Vessel',
      metadata: { name: REAL_SHAPES.errorVessel, environment: 'dev' },
      spec: {
        region: REAL_SHAPES.noSiteRegion,
        template: {
          spec: {
            containers: [
              {
                name: 'game-server',
                branch: 'dev',
                image: REAL_SHAPES.newerImageName,
                ports: [{ name: 'game', policy: 'Passthrough' }],
              },
            ],
          },
        },
      },
    },
  ];
  // The dev Armada ran the 1.2.0 object this mode replaces by two: it runs the newer one.
  for (const armada of devEnv.armadas ?? []) {
    for (const c of armada.spec.template.spec.containers) {
      if (c.image === base.metadata.name) c.image = REAL_SHAPES.newerImageName;
    }
  }
  data.environments.dev = devEnv;
  // Site names are the operator's: nothing ties one to its Location but the Location's list.
  data.locations = (data.locations ?? []).map((l) =>
    l.metadata.name === 'ams-bm-1' ? location('ams-bm-1', [REAL_SHAPES.unrelatedSite]) : l,
  );
  return data;
}
