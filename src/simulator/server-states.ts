/**
 * ArmadaGameServerStates, served only under the `serverStates` setting
 * (`--server-states`): per Armada, how many game servers are in which state,
 * as a whole, per region type and per revision (with the images it runs).
 * The resource is public by name (GameFabric/docs
 * `multiplayer-servers/authentication/service-accounts.md` lists
 * `GET /api/armada/v1/armadagameserverstates`; the provider's role example
 * grants it per environment); the per-environment path and this whole shape
 * are the simulator's (inferred), read by the client liberally
 * (api-shapes/armada-server-states.ts). Without the setting both paths
 * answer 404, as an API that does not serve them would.
 *
 * The counts come from the same computed status as the Armada's: servers
 * that are up are Ready or Allocated; the others are Starting, except that a
 * build that cannot run keeps its new servers from ever becoming Ready:
 * Unhealthy when its image crashes on start, Starting when the image is missing.
 */
import { ARMADA_API_VERSION } from '../api-shapes/armada-resources.js';
import { type ArmadaRecord, armadaStatus, templateProblem } from './armada-lifecycle.js';
import type { ImageLookup } from './containers.js';
import { SimError } from './http-utils/status.js';
import type { LifecycleSettings } from './lifecycle.js';
import type { Handler, SimServices } from './services.js';
import { blockedSites } from './sites.js';
import type { EnvironmentState } from './store.js';

// The simulator's own list (not the client's reader, so the two cannot agree by sharing code):
// Agones' GameServer states as GameFabric names them.
const GAME_SERVER_STATES = ['Ready', 'Allocated', 'Starting', 'Scheduled', 'Unhealthy', 'Error'] as const;
type StateCounts = Record<string, number>;

/** Every state of the list present, zeros included, so a reader sees which states are counted. */
function counts(values: Partial<Record<string, number>>): StateCounts {
  const out: StateCounts = {};
  for (const s of GAME_SERVER_STATES) out[s] = values[s] ?? 0;
  return out;
}

function imagesOf(rec: ArmadaRecord): string[] {
  return rec.armada.spec.template.spec.containers.flatMap((c) => (c.image ? [c.image] : []));
}

/** The state servers of this template stay in when they cannot run; undefined when they can. */
function stuckState(rec: ArmadaRecord, images: ImageLookup): 'Unhealthy' | 'Starting' | undefined {
  if (!templateProblem(rec.armada, images)) return undefined;
  const crashes = rec.armada.spec.template.spec.containers.some(
    (c) => c.branch !== undefined && c.image !== undefined && images.crashReason?.(c.branch, c.image),
  );
  return crashes ? 'Unhealthy' : 'Starting';
}

/** One Armada's item at `now`. */
export function armadaServerStates(
  env: EnvironmentState,
  rec: ArmadaRecord,
  now: number,
  s: LifecycleSettings,
  images: ImageLookup,
  store: Parameters<typeof blockedSites>[0],
) {
  const st = armadaStatus(rec, now, s, images, blockedSites(store, env.name, rec.armada));
  const notUp = Math.max(0, st.replicas - st.readyReplicas - st.allocatedReplicas);
  const stuck = stuckState(rec, images);
  const waiting = stuck ?? 'Starting';
  const current = { revision: rec.armada.metadata.revision, images: imagesOf(rec) };
  let revisions: { revision?: string; images: string[]; gameServers: StateCounts }[];
  if (!rec.rollout) {
    revisions = [
      {
        ...current,
        gameServers: counts({ Ready: st.readyReplicas, Allocated: st.allocatedReplicas, [waiting]: notUp }),
      },
    ];
  } else {
    // Up servers on the new template: the updated ones; the rest run the old one, allocated ones first
    // (they keep their match). Servers not up yet are the new template's.
    const up = st.readyReplicas + st.allocatedReplicas;
    const newUp = Math.min(st.updatedReplicas, up);
    const old = up - newUp;
    const oldAllocated = Math.min(st.allocatedReplicas, old);
    revisions = [
      {
        ...current,
        gameServers: counts({
          Ready: st.readyReplicas - (old - oldAllocated),
          Allocated: st.allocatedReplicas - oldAllocated,
          [waiting]: notUp,
        }),
      },
      {
        ...rec.rollout.from,
        gameServers: counts({ Ready: old - oldAllocated, Allocated: oldAllocated }),
      },
    ];
  }
  const total = revisions.reduce<StateCounts>((sum, r) => {
    for (const [k, v] of Object.entries(r.gameServers)) sum[k] = (sum[k] ?? 0) + v;
    return sum;
  }, {});
  return {
    apiVersion: ARMADA_API_VERSION,
    kind: 'ArmadaGameServerState',
    metadata: { name: rec.armada.metadata.name, environment: env.name },
    status: {
      gameServers: total,
      regionTypes: st.regionTypes.map((t) => ({
        name: t.name,
        gameServers: counts({
          Ready: t.readyReplicas,
          Allocated: t.allocatedReplicas,
          [waiting]: Math.max(0, t.replicas - t.readyReplicas - t.allocatedReplicas),
        }),
      })),
      revisions: revisions.filter(
        (r) => Object.values(r.gameServers).some((n) => n > 0) || r === revisions[0],
      ),
    },
  };
}

function itemsOf(svc: SimServices, env: EnvironmentState) {
  return [...env.armadas.keys()]
    .sort()
    .map((name) =>
      armadaServerStates(
        env,
        env.armadas.get(name) as ArmadaRecord,
        svc.clock.now(),
        svc.settings,
        svc.store,
        svc.store,
      ),
    );
}

// Without the setting the API does not serve the resource: the same 404 as any unknown path.
const NOT_SERVED = () => new SimError(404, 'NotFound', 'the server could not find the requested resource');

function list(items: unknown[]) {
  return { apiVersion: ARMADA_API_VERSION, kind: 'ArmadaGameServerStateList', items };
}

/** GET /api/armada/v1/environments/{env}/armadagameserverstates (path inferred by the group's convention). */
export const listServerStates: Handler = (ctx, { env = '' }, svc) => {
  if (!svc.settings.serverStates) throw NOT_SERVED();
  ctx.json(200, list(itemsOf(svc, svc.store.environment(env))));
};

/** GET /api/armada/v1/armadagameserverstates (the docs' example path): every environment's. */
export const listAllServerStates: Handler = (ctx, _params, svc) => {
  if (!svc.settings.serverStates) throw NOT_SERVED();
  ctx.json(200, list([...svc.store.environments.values()].flatMap((env) => itemsOf(svc, env))));
};
