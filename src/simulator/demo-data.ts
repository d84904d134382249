/**
 * The demo world the simulator starts with when given no data file: branches
 * `dev` and `prod`, environments `dev` (a two-type Region and the Formation
 * `lobby` with two Vessels, plus the standalone Vessel `duel-1`, which the
 * help's `vessel delete` example can delete) and `prod` (one Region, the
 * Formation `arena`); both also have the Region `us-west`, the standalone
 * Armada `duel` (two region types) and the ArmadaSet `arena` (eu-central and
 * us-west), and prod an ImageUpdater rolling `arena` out on new game-server
 * images,
 * the Locations its Regions name (each listing its Sites), and service accounts. Internal image names are stable (see image-names.ts).
 */
import type { Armada, ArmadaSet, ImageUpdater, Location } from '../api-shapes/armada-resources.js';
import type { Formation, Region, VesselTemplate } from '../api-shapes/resources.js';
import { demoAccount } from './auth.js';
import { internalImageName } from './image-names.js';
import { makeImage } from './images.js';
import type { SimulatorData } from './types.js';

/** A read-only demo account, to show what a 403 looks like. */
export const DEMO_VIEWER_TOKEN = 'demo-viewer-token';

function gameServerTemplate(branch: string, tag: string, mode: string): VesselTemplate {
  return {
    metadata: { labels: { app: 'game-server' } },
    spec: {
      containers: [
        {
          name: 'game-server',
          branch,
          image: internalImageName(branch, 'game-server', tag),
          ports: [{ name: 'game', policy: 'Dynamic', containerPort: 7777, protocol: 'UDP' }],
          args: ['--mode', mode],
          resources: { requests: { cpu: '250m', memory: '512Mi' } },
        },
      ],
    },
  };
}

function region(env: string, types: Region['spec']['types'], name = 'eu-central'): Region {
  return {
    apiVersion: 'core/v1',
    kind: 'Region',
    metadata: { name, environment: env },
    spec: { displayName: name === 'eu-central' ? 'EU Central' : 'US West', types },
  };
}

// The second region of the demo, where the ArmadaSets also run; both types in both environments.
function usWest(env: string): Region {
  return region(
    env,
    [
      { name: 'baremetal', locations: ['sfo-bm-1'], template: { scheduling: 'Packed' } },
      { name: 'cloud', locations: ['sfo-cloud-1'], template: { scheduling: 'Distributed' } },
    ],
    'us-west',
  );
}

type Replicas = [min: number, buffer: number, max: number];
const dist = (name: string, [min, buffer, max]: Replicas) => ({
  name,
  minReplicas: min,
  bufferSize: buffer,
  maxReplicas: max,
});

// Armada templates are Vessel templates plus a rolling-update strategy.
function armadaTemplate(branch: string, tag: string, mode: string): Armada['spec']['template'] {
  const template = gameServerTemplate(branch, tag, mode);
  return {
    ...template,
    spec: {
      ...template.spec,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
    },
  };
}

/** A standalone Armada with two region types. */
function duelArmada(env: string, branch: string, tag: string, region: string): Armada {
  return {
    apiVersion: 'armada/v1',
    kind: 'Armada',
    metadata: { name: 'duel', environment: env },
    spec: {
      region,
      description: 'duel game servers',
      distribution: [dist('baremetal', [2, 2, 10]), dist('cloud', [0, 2, 20])],
      autoscaling: { fixedInterval: { seconds: 30 } },
      template: armadaTemplate(branch, tag, 'duel'),
    },
  };
}

/** An ArmadaSet over eu-central and us-west. */
function arenaSet(env: string, branch: string, tag: string): ArmadaSet {
  return {
    apiVersion: 'armada/v1',
    kind: 'ArmadaSet',
    metadata: { name: 'arena', environment: env },
    spec: {
      description: 'arena game servers',
      armadas: [
        { region: 'eu-central', distribution: [dist('baremetal', [4, 2, 12])] },
        { region: 'us-west', distribution: [dist('cloud', [2, 1, 8])] },
      ],
      template: armadaTemplate(branch, tag, 'arena'),
    },
  };
}

/** Rolls the prod ArmadaSet out whenever a game-server image appears in prod (pushed or promoted). */
function arenaUpdater(): ImageUpdater {
  return {
    apiVersion: 'container/v1',
    kind: 'ImageUpdater',
    metadata: { name: 'arena-game-server', environment: 'prod' },
    spec: {
      branch: 'prod',
      imageName: 'game-server',
      targetRef: { apiVersion: 'armada/v1', kind: 'ArmadaSet', name: 'arena' },
    },
  };
}

/** A Location and the Sites that make it up (cluster-scoped, shared by every environment). */
export function location(name: string, sites: string[]): Location {
  return { apiVersion: 'core/v1', kind: 'Location', metadata: { name }, spec: { sites } };
}

/**
 * The Locations the demo Regions name. `fra-bm-1` is made up of two Sites, so
 * one of them down leaves the other serving and the fleets still Degraded.
 */
export function demoLocations(): Location[] {
  return [
    location('ams-bm-1', ['ams-bm-1-01']),
    location('ams-cloud-1', ['ams-cloud-1-01']),
    location('fra-bm-1', ['fra-bm-1-01', 'fra-bm-1-02']),
    location('fra-cloud-1', ['fra-cloud-1-01']),
    location('sfo-bm-1', ['sfo-bm-1-01']),
    location('sfo-cloud-1', ['sfo-cloud-1-01']),
  ];
}

function formation(
  env: string,
  name: string,
  template: VesselTemplate,
  vessels: Formation['spec']['vessels'],
): Formation {
  return {
    apiVersion: 'formation/v1',
    kind: 'Formation',
    metadata: { name, environment: env },
    spec: { description: `${name} game servers`, template, vessels },
  };
}

/**
 * The demo's bad build (issue 42): dev's game-server:1.0.0 crashes on start in
 * the embedded simulator (local mode), so a guarded rollout can be tried on
 * it: its new game servers never become Ready.
 */
export const DEMO_CRASHING_IMAGES: readonly { branch: string; image: string; tag: string; reason: string }[] =
  [{ branch: 'dev', image: 'game-server', tag: '1.0.0', reason: "exit code 1 (the demo's bad build)" }];

/** A fresh copy of the demo data. */
export function demoData(): SimulatorData {
  return {
    branches: {
      dev: [
        makeImage('dev', 'game-server', '1.0.0'),
        makeImage('dev', 'game-server', '1.1.0'),
        makeImage('dev', 'game-server', '1.2.0'),
        makeImage('dev', 'sidecar-metrics', '0.3.0'),
      ],
      prod: [makeImage('prod', 'game-server', '1.0.0')],
    },
    // The platform's default branches display as "Development" and "Production".
    branchDisplayNames: { dev: 'Development', prod: 'Production' },
    environments: {
      dev: {
        regions: [
          region('dev', [
            { name: 'baremetal', locations: ['fra-bm-1', 'ams-bm-1'], template: { scheduling: 'Packed' } },
            {
              name: 'cloud',
              locations: ['fra-cloud-1', 'ams-cloud-1'],
              template: { scheduling: 'Distributed' },
            },
          ]),
          usWest('dev'),
        ],
        formations: [
          formation('dev', 'lobby', gameServerTemplate('dev', '1.1.0', 'lobby'), [
            { name: 'lobby-1', region: 'eu-central' },
            {
              name: 'lobby-2',
              region: 'eu-central',
              override: {
                containers: [{ name: 'game-server', args: ['--mode', 'lobby', '--max-players', '64'] }],
              },
            },
          ]),
        ],
        vessels: [
          {
            apiVersion: 'formation/v1',
            kind: 'Vessel',
            metadata: { name: 'duel-1', environment: 'dev' },
            spec: { region: 'eu-central', template: gameServerTemplate('dev', '1.2.0', 'duel') },
          },
        ],
        armadas: [duelArmada('dev', 'dev', '1.2.0', 'eu-central')],
        armadaSets: [arenaSet('dev', 'dev', '1.1.0')],
      },
      prod: {
        regions: [
          region('prod', [
            { name: 'baremetal', locations: ['fra-bm-1'], template: { scheduling: 'Packed' } },
          ]),
          usWest('prod'),
        ],
        formations: [
          formation('prod', 'arena', gameServerTemplate('prod', '1.0.0', 'arena'), [
            { name: 'arena-1', region: 'eu-central' },
          ]),
        ],
        // game-server:1.2.0 is in dev, not yet in prod: promoting it rolls arena out through the updater.
        armadas: [duelArmada('prod', 'prod', '1.0.0', 'us-west')],
        armadaSets: [arenaSet('prod', 'prod', '1.0.0')],
        imageUpdaters: [arenaUpdater()],
      },
    },
    locations: demoLocations(),
    serviceAccounts: [
      demoAccount(),
      {
        name: 'viewer@demo.local',
        tokens: [DEMO_VIEWER_TOKEN],
        permissions: {
          BRANCHES: ['GET'],
          IMAGES: ['GET'],
          IMAGEPROMOTIONS: ['GET'],
          VESSELS: ['GET'],
          FORMATIONS: ['GET'],
          REGIONS: ['GET'],
          ARMADAS: ['GET'],
          ARMADASETS: ['GET'],
          IMAGEUPDATERS: ['GET'],
          ENVIRONMENTS: ['GET'],
          SITES: ['GET'],
          LOCATIONS: ['GET'],
          GAMESERVERS: ['GET'],
        },
      },
    ],
  };
}
