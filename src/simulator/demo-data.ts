/**
 * The demo world the simulator starts with when given no data file: branches
 * `dev` and `prod`, environments `dev` (a two-type Region and the Formation
 * `lobby` with two Vessels, plus the standalone Vessel `duel-1`, which the
 * help's `vessel delete` example can delete) and `prod` (one Region, the
 * Formation `arena`),
 * and service accounts. Internal image names are stable (see image-names.ts).
 */
import type { Formation, Region, VesselTemplate } from '../gamefabric/resources.js';
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

function region(env: string, types: Region['spec']['types']): Region {
  return {
    apiVersion: 'core/v1',
    kind: 'Region',
    metadata: { name: 'eu-central', environment: env },
    spec: { displayName: 'EU Central', types },
  };
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
      },
      prod: {
        regions: [
          region('prod', [
            { name: 'baremetal', locations: ['fra-bm-1'], template: { scheduling: 'Packed' } },
          ]),
        ],
        formations: [
          formation('prod', 'arena', gameServerTemplate('prod', '1.0.0', 'arena'), [
            { name: 'arena-1', region: 'eu-central' },
          ]),
        ],
      },
    },
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
        },
      },
    ],
  };
}
