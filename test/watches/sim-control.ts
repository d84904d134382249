/** Drives the simulator's trouble for watch tests and the bench, over its HTTP control endpoints (no jest here). */

import { internalImageName, type Simulator } from '../../src/simulator/index.js';

/** A call to the simulator's API or control endpoints, as someone in the console would make it. */
export async function simSend(
  sim: Pick<Simulator, 'url' | 'token'>,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
) {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${sim.token}`,
      accept: 'application/json',
      'content-type': contentType,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<unknown>;
}

/** Puts a vessel in Error with `reason`, or (undefined) starts it again. */
export const failVessel = (sim: Simulator, env: string, vessel: string, reason?: string) =>
  simSend(sim, 'POST', `/_sim/vessels/${env}/${vessel}/fail`, reason ? { reason } : {});

/** The Site of dev's Armada `duel` (region eu-central, its first Location). */
export const DUEL_SITE = 'fra-bm-1-01';

/** Makes a Site unavailable (`reason`), which leaves the fleets of its regions Degraded, or (undefined) Connected again. */
export async function siteDown(sim: Simulator, site: string, reason?: string): Promise<void> {
  await simSend(sim, 'POST', `/_sim/sites/${site}`, reason ? { state: 'Error', reason } : {});
}

/** The API reads the simulator logged (its own control calls not counted), then forgets them. */
export async function takeApiReads(sim: Simulator): Promise<number> {
  const entries = (await simSend(sim, 'GET', '/_sim/requests')) as { method: string; path: string }[];
  await simSend(sim, 'DELETE', '/_sim/requests');
  return entries.filter((r) => r.method === 'GET' && !r.path.startsWith('/_sim')).length;
}

/** The build `crashDuel` rolls out: dev's game-server:1.0.0, which crashes on start. */
export const CRASHING_IMAGE = internalImageName('dev', 'game-server', '1.0.0');

/**
 * Rolls dev's Armada duel out to a build that crashes on start, with Recreate (every unallocated
 * server replaced by one that never starts), and Scale to Zero when asked.
 */
export async function crashDuel(
  sim: Pick<Simulator, 'url' | 'token' | 'setCrashingImage'>,
  scaleToZero: boolean,
): Promise<void> {
  sim.setCrashingImage('dev', CRASHING_IMAGE, 'exit code 1');
  const duel = '/api/armada/v1/environments/dev/armadas/duel';
  await simSend(
    sim,
    'PATCH',
    duel,
    {
      spec: {
        ...(scaleToZero ? { autoscaling: { scaleToZero: {} } } : {}),
        template: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } },
      },
    },
    'application/merge-patch+json',
  );
  await simSend(
    sim,
    'PATCH',
    duel,
    [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: CRASHING_IMAGE }],
    'application/json-patch+json',
  );
}
