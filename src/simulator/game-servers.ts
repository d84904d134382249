/**
 * Game servers as Sites hold them, for `DELETE /api/core/v1/sites/{site}/gameservers/{name}`
 * (docs `getting-started/terminating-game-servers.md`). Each Armada region
 * type's servers live on the first Site of its first Location, named
 * `<armada>-<type>-<n>` (the simulator's names; real ones are pod names).
 * Terminating an allocated one ends its match; the autoscaler then starts a
 * new server under a number not used before. The list path (GET) is the simulator's,
 * inferred from the Kubernetes convention, so a read-back has something to ask.
 */
import { API_VERSIONS } from '../api-shapes/resources.js';
import { armadaStatus } from './armada-lifecycle.js';
import { notFound } from './http-utils/status.js';
import { regionTypeOrder } from './region-priority.js';
import type { Handler, SimServices } from './services.js';
import { sitesOfLocation } from './sites.js';

interface GameServerView {
  apiVersion: string;
  kind: 'GameServer';
  metadata: { name: string; site: string; armada: string; environment: string };
  status: { state: 'Allocated' | 'Ready' };
}

/** Every game server on `site` now. */
export function gameServersOn(svc: SimServices, site: string): GameServerView[] {
  const out: GameServerView[] = [];
  for (const env of svc.store.environments.values()) {
    for (const [armadaName, rec] of env.armadas) {
      const region = env.regions.get(rec.armada.spec.region);
      const status = armadaStatus(
        rec,
        svc.clock.now(),
        svc.settings,
        svc.store,
        [],
        regionTypeOrder(env, rec.armada),
      );
      for (const t of status.regionTypes) {
        const location = region?.spec.types.find((x) => x.name === t.name)?.locations[0];
        if (!location || sitesOfLocation(svc.store, location)[0] !== site) continue;
        // Numbers in use: the lowest ones not terminated; the first `allocated` of them are in a match.
        const gone = rec.terminated.get(t.name) ?? new Set<number>();
        for (let n = 0, shown = 0; shown < t.replicas; n++) {
          if (gone.has(n)) continue;
          out.push({
            apiVersion: API_VERSIONS.core,
            kind: 'GameServer',
            metadata: {
              name: `${armadaName}-${t.name}-${n}`,
              site,
              armada: armadaName,
              environment: env.name,
            },
            status: { state: shown < t.allocatedReplicas ? 'Allocated' : 'Ready' },
          });
          shown++;
        }
      }
    }
  }
  return out;
}

/** GET /api/core/v1/sites/{site}/gameservers (the simulator's; inferred). */
export const listGameServers: Handler = (ctx, { site = '' }, svc) => {
  ctx.json(200, { apiVersion: API_VERSIONS.core, kind: 'GameServerList', items: gameServersOn(svc, site) });
};

/** DELETE /api/core/v1/sites/{site}/gameservers/{name}: the server stops; an allocated one's match ends. */
export const terminateGameServer: Handler = (ctx, { site = '', name = '' }, svc) => {
  const server = gameServersOn(svc, site).find((g) => g.metadata.name === name);
  if (!server) throw notFound('GameServer', name, `site "${site}"`);
  const rec = svc.store.environments.get(server.metadata.environment)?.armadas.get(server.metadata.armada);
  const match = /^(.*)-(\d+)$/.exec(name.slice(server.metadata.armada.length + 1));
  if (rec && match) {
    const [, type = '', n = '0'] = match;
    // The name is not reused: the autoscaler's replacement takes a number not used before.
    const gone = rec.terminated.get(type) ?? new Set<number>();
    gone.add(Number(n));
    rec.terminated.set(type, gone);
    if (server.status.state === 'Allocated') {
      rec.allocated.set(type, Math.max(0, (rec.allocated.get(type) ?? 0) - 1));
    }
  }
  ctx.json(200, server);
};
