/** Drives the simulator's trouble for watch tests and the bench, over its HTTP control endpoints (no jest here). */

import { internalImageName } from '../../src/simulator/image-names.js';
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

/** Makes the Armada `duel` of dev run a build whose servers crash (reason) or, without one, run again. */
export async function crashDuel(sim: Simulator, reason?: string): Promise<void> {
  const image = internalImageName('dev', 'game-server', '1.0.0');
  await send(sim, 'POST', '/_sim/crashing-images', { branch: 'dev', image, ...(reason ? { reason } : {}) });
  await send(
    sim,
    'PATCH',
    '/api/armada/v1/environments/dev/armadas/duel',
    [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }],
    'application/json-patch+json',
  );
}

/** The API reads the simulator logged (its own control calls not counted), then forgets them. */
export async function takeApiReads(sim: Simulator): Promise<number> {
  const entries = (await send(sim, 'GET', '/_sim/requests')) as { method: string; path: string }[];
  await send(sim, 'DELETE', '/_sim/requests');
  return entries.filter((r) => r.method === 'GET' && !r.path.startsWith('/_sim')).length;
}
