/**
 * Sites: one per Location named by any Region (`<location>-01`), Connected
 * unless a test or demo says otherwise (`POST /_sim/sites/{name}` or
 * `Simulator.setSite`). A Site that is not Connected is what makes an Armada
 * Degraded: its configuration cannot be deployed there (docs glossary
 * "Degraded"). The Site's field names are inferred (docs
 * `architecture/regions-sites-and-locations.md` names states and cordoning).
 */

import type { Armada, Site } from '../api-shapes/armada-resources.js';
import { API_VERSIONS } from '../api-shapes/resources.js';
import type { BlockedSite } from './armada-lifecycle.js';
import type { Handler } from './services.js';
import type { SimStore } from './store.js';

/** The name of the one Site of a Location. */
export const siteNameOf = (location: string): string => `${location}-01`;

/** Every Site, sorted by name. */
export function allSites(store: SimStore): Site[] {
  const locations = new Set<string>();
  for (const env of store.environments.values()) {
    for (const region of env.regions.values()) {
      for (const type of region.spec.types) for (const l of type.locations) locations.add(l);
    }
  }
  return [...locations].sort().map((location) => siteOf(store, location));
}

function siteOf(store: SimStore, location: string): Site {
  const name = siteNameOf(location);
  const o = store.siteOverrides.get(name) ?? {};
  return {
    apiVersion: API_VERSIONS.core,
    kind: 'Site',
    metadata: { name },
    spec: { location, cordoned: o.cordoned ?? false },
    status: { state: o.state ?? 'Connected', ...(o.reason ? { reason: o.reason } : {}) },
  };
}

/** The Sites of an Armada's region (region types `types`, or all) that cannot take its configuration. */
export function unavailableSites(
  store: SimStore,
  env: string,
  region: string,
  types?: readonly string[],
): Site[] {
  const r = store.environments.get(env)?.regions.get(region);
  if (!r) return [];
  const locations = r.spec.types.filter((t) => !types || types.includes(t.name)).flatMap((t) => t.locations);
  return [...new Set(locations)].map((l) => siteOf(store, l)).filter((s) => s.status?.state !== 'Connected');
}

/** GET /api/core/v1/sites */
export const listSites: Handler = (ctx, _params, svc) => {
  ctx.json(200, { apiVersion: API_VERSIONS.core, kind: 'SiteList', items: allSites(svc.store) });
};

/** The Sites an Armada's configuration cannot reach (those of its region types' locations). */
export function blockedSites(store: SimStore, env: string, armada: Armada): BlockedSite[] {
  const types = armada.spec.distribution.map((d) => d.name);
  return unavailableSites(store, env, armada.spec.region, types).map((site) => ({
    name: site.metadata.name,
    state: site.status?.state ?? 'Unknown',
    ...(site.status?.reason ? { reason: site.status.reason } : {}),
  }));
}
