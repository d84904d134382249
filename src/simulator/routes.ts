/** The API route table: path patterns, the resource each needs permission on, and handlers per method. */
import {
  createArmada,
  createArmadaSet,
  deleteArmada,
  deleteArmadaSet,
  getArmada,
  getArmadaSet,
  listArmadaSets,
  listArmadas,
  listEnvironments,
  listImageUpdaters,
  patchArmada,
  patchArmadaSet,
} from './armadas.js';
import { getBranch, listBranches } from './branches.js';
import { createFormation, getFormation, listFormations, patchFormation } from './formations.js';
import { listGameServers, terminateGameServer } from './game-servers.js';
import { createPromotion, getPromotion, listImages, listPromotions } from './images.js';
import { getVesselLogs } from './logs.js';
import { createRegion, getRegion, listRegions, patchRegion } from './regions.js';
import { listAllServerStates, listServerStates } from './server-states.js';
import type { Handler } from './services.js';
import { getLocation, listLocations, listSites } from './sites.js';
import type { SimMethod, SimResource } from './types.js';
import { createVessel, deleteVessel, getVessel, listVessels } from './vessels.js';

interface Route {
  pattern: string;
  resource: SimResource;
  handlers: Partial<Record<SimMethod, Handler>>;
}

const FORMATION = '/api/formation/v1/environments/:env';
const CORE = '/api/core/v1/environments/:env';
const ARMADA = '/api/armada/v1/environments/:env';

const ROUTES: readonly Route[] = [
  { pattern: '/api/container/v1/branches', resource: 'BRANCHES', handlers: { GET: listBranches } },
  { pattern: '/api/container/v1/branches/:name', resource: 'BRANCHES', handlers: { GET: getBranch } },
  { pattern: '/api/container/v1/images/scopes/:branch', resource: 'IMAGES', handlers: { GET: listImages } },
  {
    pattern: '/api/container/v1/imagepromotions/scopes/:branch',
    resource: 'IMAGEPROMOTIONS',
    handlers: { GET: listPromotions, POST: createPromotion },
  },
  {
    pattern: '/api/container/v1/imagepromotions/scopes/:branch/:name',
    resource: 'IMAGEPROMOTIONS',
    handlers: { GET: getPromotion },
  },
  {
    pattern: `${FORMATION}/vessels`,
    resource: 'VESSELS',
    handlers: { GET: listVessels, POST: createVessel },
  },
  {
    pattern: `${FORMATION}/vessels/:name`,
    resource: 'VESSELS',
    handlers: { GET: getVessel, DELETE: deleteVessel },
  },
  { pattern: `${FORMATION}/vessels/:name/logs`, resource: 'VESSELS', handlers: { GET: getVesselLogs } },
  {
    pattern: `${FORMATION}/formations`,
    resource: 'FORMATIONS',
    handlers: { GET: listFormations, POST: createFormation },
  },
  {
    pattern: `${FORMATION}/formations/:name`,
    resource: 'FORMATIONS',
    handlers: { GET: getFormation, PATCH: patchFormation },
  },
  { pattern: `${CORE}/regions`, resource: 'REGIONS', handlers: { GET: listRegions, POST: createRegion } },
  { pattern: `${CORE}/regions/:name`, resource: 'REGIONS', handlers: { GET: getRegion, PATCH: patchRegion } },
  { pattern: '/api/core/v1/environments', resource: 'ENVIRONMENTS', handlers: { GET: listEnvironments } },
  { pattern: '/api/core/v1/sites', resource: 'SITES', handlers: { GET: listSites } },
  // Inferred path (the core group's convention); the provider reads Locations through CoreV1().Locations().
  { pattern: '/api/core/v1/locations', resource: 'LOCATIONS', handlers: { GET: listLocations } },
  { pattern: '/api/core/v1/locations/:name', resource: 'LOCATIONS', handlers: { GET: getLocation } },
  {
    pattern: '/api/core/v1/sites/:site/gameservers',
    resource: 'GAMESERVERS',
    handlers: { GET: listGameServers },
  },
  {
    pattern: '/api/core/v1/sites/:site/gameservers/:name',
    resource: 'GAMESERVERS',
    handlers: { DELETE: terminateGameServer },
  },
  {
    pattern: `${ARMADA}/armadas`,
    resource: 'ARMADAS',
    handlers: { GET: listArmadas, POST: createArmada },
  },
  {
    pattern: `${ARMADA}/armadas/:name`,
    resource: 'ARMADAS',
    handlers: { GET: getArmada, PATCH: patchArmada, DELETE: deleteArmada },
  },
  {
    pattern: `${ARMADA}/armadasets`,
    resource: 'ARMADASETS',
    handlers: { GET: listArmadaSets, POST: createArmadaSet },
  },
  {
    pattern: `${ARMADA}/armadasets/:name`,
    resource: 'ARMADASETS',
    handlers: { GET: getArmadaSet, PATCH: patchArmadaSet, DELETE: deleteArmadaSet },
  },
  {
    pattern: `${ARMADA}/armadagameserverstates`,
    resource: 'ARMADAGAMESERVERSTATES',
    handlers: { GET: listServerStates },
  },
  {
    pattern: '/api/armada/v1/armadagameserverstates',
    resource: 'ARMADAGAMESERVERSTATES',
    handlers: { GET: listAllServerStates },
  },
  {
    pattern: '/api/container/v1/environments/:env/imageupdaters',
    resource: 'IMAGEUPDATERS',
    handlers: { GET: listImageUpdaters },
  },
];

interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** The route whose pattern matches `path` (segment by segment), with decoded parameters. */
export function matchRoute(path: string, routes: readonly Route[] = ROUTES): RouteMatch | undefined {
  const segments = path.split('/');
  for (const route of routes) {
    const pattern = route.pattern.split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      const want = pattern[i] as string;
      const got = segments[i] as string;
      if (want.startsWith(':')) {
        ok = got !== '';
        params[want.slice(1)] = safeDecode(got);
      } else ok = want === got;
    }
    if (ok) return { route, params };
  }
  return undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
