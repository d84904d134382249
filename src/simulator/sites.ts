/**
 * Sites and Locations, both cluster-scoped in the core group. A Location
 * lists the Sites that make it up (`spec.sites`, nitrado/terraform-provider-ec
 * `ec/core/schema_location.go`); a Site names no Location (its spec keys:
 * `ec/core/schema_site.go`). Locations come from the data's `locations`; a
 * Location a Region names that the data does not declare is served as one
 * with a single Site `<location>-01` (a simulator convenience, so tests can
 * create Regions anywhere). Every Site is Connected unless a test or demo
 * says otherwise (`POST /_sim/sites/{name}` or `Simulator.setSite`). A Site
 * that is not Connected is what makes an Armada Degraded: its configuration
 * cannot be deployed there (docs glossary "Degraded").
 */

import type { Armada, Location, Site } from '../api-shapes/armada-resources.js';
import { API_VERSIONS } from '../api-shapes/resources.js';
import type { BlockedSite } from './armada-lifecycle.js';
import { notFound } from './http-utils/status.js';
import type { Handler } from './services.js';
import type { SimStore } from './store.js';

/** The Site of a Location the data does not declare. */
const implicitSiteOf = (location: string): string => `${location}-01`;

/** Every Location name some Region of some environment names. */
function namedLocations(store: SimStore): Set<string> {
  const names = new Set<string>();
  for (const env of store.environments.values()) {
    for (const region of env.regions.values()) {
      for (const type of region.spec.types) for (const l of type.locations) names.add(l);
    }
  }
  return names;
}

/** The Location `name`: declared, or implied by a Region naming it; undefined when neither. */
export function locationNamed(store: SimStore, name: string): Location | undefined {
  const declared = store.locations.get(name);
  if (declared) return declared;
  if (!namedLocations(store).has(name)) return undefined;
  return {
    apiVersion: API_VERSIONS.core,
    kind: 'Location',
    metadata: { name },
    spec: { sites: [implicitSiteOf(name)] },
  };
}

/** Every Location (declared and implied), sorted by name. */
export function allLocations(store: SimStore): Location[] {
  const names = new Set([...store.locations.keys(), ...namedLocations(store)]);
  return [...names]
    .sort()
    .map((n) => locationNamed(store, n))
    .filter((l): l is Location => l !== undefined);
}

/** The Site names of a Location, in its order ([] when it is unknown). */
export function sitesOfLocation(store: SimStore, location: string): string[] {
  return [...(locationNamed(store, location)?.spec?.sites ?? [])];
}

/** Every Site of every Location, sorted by name. */
export function allSites(store: SimStore): Site[] {
  const names = new Set(allLocations(store).flatMap((l) => l.spec?.sites ?? []));
  return [...names].sort().map((name) => siteNamed(store, name));
}

function siteNamed(store: SimStore, name: string): Site {
  const o = store.siteOverrides.get(name) ?? {};
  return {
    apiVersion: API_VERSIONS.core,
    kind: 'Site',
    metadata: { name },
    spec: { cordoned: o.cordoned ?? false },
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
  const sites = new Set(locations.flatMap((l) => sitesOfLocation(store, l)));
  return [...sites].map((s) => siteNamed(store, s)).filter((s) => s.status?.state !== 'Connected');
}

/** GET /api/core/v1/sites */
export const listSites: Handler = (ctx, _params, svc) => {
  ctx.json(200, { apiVersion: API_VERSIONS.core, kind: 'SiteList', items: allSites(svc.store) });
};

/** GET /api/core/v1/locations (the path is inferred from the core group's convention). */
export const listLocations: Handler = (ctx, _params, svc) => {
  ctx.json(200, { apiVersion: API_VERSIONS.core, kind: 'LocationList', items: allLocations(svc.store) });
};

/** GET /api/core/v1/locations/{name} */
export const getLocation: Handler = (ctx, { name = '' }, svc) => {
  const location = locationNamed(svc.store, name);
  if (!location) throw notFound('Location', name);
  ctx.json(200, location);
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
