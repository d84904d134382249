/** Drives the simulator's trouble for watch tests and the bench, over its HTTP control endpoints (no jest here). */

import type { Simulator } from '../../src/simulator/index.js';

async function send(
  sim: Simulator,
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
  send(sim, 'POST', `/_sim/vessels/${env}/${vessel}/fail`, reason ? { reason } : {});

/** The Site of dev's Armada `duel` (region eu-central, its first Location). */
export const DUEL_SITE = 'fra-bm-1-01';

/** Makes a Site unavailable (`reason`), which leaves the fleets of its regions Degraded, or (undefined) Connected again. */
export async function siteDown(sim: Simulator, site: string, reason?: string): Promise<void> {
  await send(sim, 'POST', `/_sim/sites/${site}`, reason ? { state: 'Error', reason } : {});
}

/** The API reads the simulator logged (its own control calls not counted), then forgets them. */
export async function takeApiReads(sim: Simulator): Promise<number> {
  const entries = (await send(sim, 'GET', '/_sim/requests')) as { method: string; path: string }[];
  await send(sim, 'DELETE', '/_sim/requests');
  return entries.filter((r) => r.method === 'GET' && !r.path.startsWith('/_sim')).length;
}
