/**
 * Read-only queries over Armadas and ArmadaSets: neutral views for the
 * renderers, images as `image:tag`, replica counts read liberally (the real
 * status field names are not public), and which ImageUpdaters target each.
 */
import {
  type Armada,
  type ArmadaSet,
  armadaSetOwner,
  hasDynamicBuffer,
  type ImageUpdater,
  type ReplicaCounts,
  replicaCounts,
} from '../api-shapes/armada-resources.js';
import { addCounts, type StateCounts } from '../api-shapes/armada-server-states.js';
import type { GameFabricClient } from '../gamefabric/client.js';
import { ApiError, isNotFound } from '../gamefabric/errors.js';
import { armadasOf, fleetServerStates, readServerStates } from './fleet-servers.js';
import { readSitesBehind } from './fleet-sites.js';
import { scaleToZeroStates } from './fleet-state.js';
import { imageTags, tagOf } from './image-tags.js';
import { missingEnvironment, missingIn, NotFoundError, quote } from './not-found.js';
import type { SitesReading } from './site-join.js';

/** One region type of one region: the settings and, where the status tells them, the counts. */
export interface TypeRow extends ReplicaCounts {
  region: string;
  type: string;
  minReplicas: number;
  bufferSize: number;
  maxReplicas: number;
  dynamicBuffer: boolean;
  /** The Scale to Zero state of this type, when the status reports one. */
  scaleToZero?: string;
}

export interface ContainerView {
  name: string;
  branch?: string;
  /** `image:tag`, or the internal name when it cannot be resolved. */
  image: string;
  internalName?: string;
}

/** An Armada or ArmadaSet as the list and the show answers draw it. */
export interface FleetView {
  kind: 'Armada' | 'ArmadaSet';
  name: string;
  description?: string;
  regions: string[];
  types: TypeRow[];
  containers: ContainerView[];
  state: string;
  reason?: string;
  totals: ReplicaCounts;
  /** The ArmadaSet that owns this Armada. */
  owner?: string;
  /** ImageUpdaters targeting it, as "name (imageName in branch)"; undefined when they could not be read. */
  updaters?: string[];
  /** ArmadaSets only: the Armadas it owns, by region. */
  owned?: { region: string; name: string; state: string; reason?: string }[];
  strategy?: { recreate?: boolean; maxSurge?: string; maxUnavailable?: string };
  /** Show answers of a Degraded fleet: the Sites behind it, or that they could not be read. */
  sites?: SitesReading;
  /** Show answers: the game servers by state (ArmadaGameServerStates), or why they are not known. */
  servers?: ServersView;
}

/** A fleet's game servers as the show answers draw them. */
export type ServersView =
  | { kind: 'read'; states: StateCounts; byBuild: { image: string; states: StateCounts }[] }
  | { kind: 'unreadable'; status: number }
  /** The list was read and names no Armada of this fleet. */
  | { kind: 'unlisted' };

/** The fleet's game servers for a show answer, with the builds named as `image:tag` where known. */
async function serversView(
  client: GameFabricClient,
  environment: string,
  kind: 'Armada' | 'ArmadaSet',
  name: string,
  armadas: readonly Armada[] | undefined,
  tags: ReadonlyMap<string, string>,
): Promise<ServersView> {
  const reading = await readServerStates(client, environment);
  if (reading.kind === 'unreadable') return reading;
  const s = fleetServerStates(reading.armadas, armadasOf(kind, name, armadas));
  if (!s) return { kind: 'unlisted' };
  const byBuild = new Map<string, StateCounts>();
  for (const r of s.revisions) {
    if (r.images.length === 0) continue;
    const image = r.images.map((i) => tagOf(tags, i)).join(', ');
    byBuild.set(image, addCounts(byBuild.get(image) ?? {}, r.states));
  }
  return {
    kind: 'read',
    states: s.states,
    byBuild: [...byBuild].map(([image, states]) => ({ image, states })),
  };
}

export interface ArmadasView {
  environment: string;
  fleets: FleetView[];
  /** False when the ImageUpdaters could not be read (say, no permission): "targeted" is then unknown. */
  updatersKnown: boolean;
}

/** The Sites behind a Degraded fleet (docs glossary "Degraded"); nothing to read for any other state. */
async function sitesIfDegraded(
  client: GameFabricClient,
  environment: string,
  fleet: Armada | ArmadaSet,
): Promise<SitesReading | undefined> {
  return fleet.status?.state === 'Degraded' ? readSitesBehind(client, environment, fleet) : undefined;
}

/** ImageUpdaters of the environment, or undefined when the API will not list them (403, or 404 for the path). */
async function readUpdaters(client: GameFabricClient, env: string): Promise<ImageUpdater[] | undefined> {
  try {
    return await client.listImageUpdaters(env);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 403 || err.status === 404)) return undefined;
    throw err;
  }
}

/** "arena-game-server (game-server in prod)" for each ImageUpdater whose target is `kind` `name`. */
export function updatersOf(updaters: readonly ImageUpdater[] | undefined, kind: string, name: string) {
  return updaters
    ?.filter((u) => u.spec.targetRef.kind === kind && u.spec.targetRef.name === name)
    .map((u) => `${u.metadata.name} (${u.spec.imageName} in ${u.spec.branch}${updaterStatus(u)})`);
}

/** "; Ready, last applied game-server:1.2.0 at 2026-…" from what the status holds; "" when it holds nothing. */
function updaterStatus(u: ImageUpdater): string {
  const s = u.status;
  if (!s) return '';
  const state = s.state ? `${s.state}${s.reason ? `: ${s.reason}` : ''}` : '';
  const last = s.lastUpdate?.image
    ? `last applied ${s.lastUpdate.image}${s.lastUpdate.time ? ` at ${s.lastUpdate.time}` : ''}`
    : '';
  const parts = [state, last].filter(Boolean);
  return parts.length ? `; ${parts.join(', ')}` : '';
}

function typeRows(region: string, distribution: Armada['spec']['distribution'], status: unknown): TypeRow[] {
  const { byType } = replicaCounts(status);
  const parked = scaleToZeroStates(status);
  return distribution.map((d) => ({
    ...(parked.has(d.name) ? { scaleToZero: parked.get(d.name) } : {}),
    region,
    type: d.name,
    minReplicas: d.minReplicas ?? 0,
    bufferSize: d.bufferSize ?? 0,
    maxReplicas: d.maxReplicas ?? 0,
    dynamicBuffer: hasDynamicBuffer(d),
    ...byType.get(d.name),
  }));
}

function containersOf(fleet: Armada | ArmadaSet, tags: ReadonlyMap<string, string>): ContainerView[] {
  return fleet.spec.template.spec.containers.map((c) => ({
    name: c.name,
    ...(c.branch ? { branch: c.branch } : {}),
    image: tagOf(tags, c.image),
    ...(c.image && tags.has(c.image) ? { internalName: c.image } : {}),
  }));
}

function strategyOf(fleet: Armada | ArmadaSet): FleetView['strategy'] {
  if (fleet.spec.template.spec.strategy?.type === 'Recreate') return { recreate: true };
  const rolling = fleet.spec.template.spec.strategy?.rollingUpdate;
  if (!rolling) return undefined;
  return {
    ...(rolling.maxSurge !== undefined ? { maxSurge: String(rolling.maxSurge) } : {}),
    ...(rolling.maxUnavailable !== undefined ? { maxUnavailable: String(rolling.maxUnavailable) } : {}),
  };
}

function armadaView(a: Armada, tags: ReadonlyMap<string, string>, updaters?: ImageUpdater[]): FleetView {
  const owner = armadaSetOwner(a);
  const strategy = strategyOf(a);
  const targeted = updatersOf(updaters, 'Armada', a.metadata.name);
  return {
    kind: 'Armada',
    name: a.metadata.name,
    ...(a.spec.description ? { description: a.spec.description } : {}),
    regions: [a.spec.region],
    types: typeRows(a.spec.region, a.spec.distribution, a.status),
    containers: containersOf(a, tags),
    state: a.status?.state ?? 'Unknown',
    ...(a.status?.reason ? { reason: a.status.reason } : {}),
    totals: replicaCounts(a.status).total,
    ...(owner ? { owner } : {}),
    ...(targeted ? { updaters: targeted } : {}),
    ...(strategy ? { strategy } : {}),
  };
}

function armadaSetView(
  set: ArmadaSet,
  armadas: readonly Armada[],
  tags: ReadonlyMap<string, string>,
  updaters?: ImageUpdater[],
): FleetView {
  const mine = armadas.filter((a) => armadaSetOwner(a) === set.metadata.name);
  const byRegion = new Map(mine.map((a) => [a.spec.region, a]));
  const strategy = strategyOf(set);
  const targeted = updatersOf(updaters, 'ArmadaSet', set.metadata.name);
  return {
    kind: 'ArmadaSet',
    name: set.metadata.name,
    ...(set.spec.description ? { description: set.spec.description } : {}),
    regions: set.spec.armadas.map((r) => r.region),
    // Counts per type come from the region's own Armada, whose status has them.
    types: set.spec.armadas.flatMap((r) =>
      typeRows(r.region, r.distribution, byRegion.get(r.region)?.status),
    ),
    containers: containersOf(set, tags),
    state: set.status?.state ?? 'Unknown',
    ...(set.status?.reason ? { reason: set.status.reason } : {}),
    totals: replicaCounts(set.status).total,
    ...(targeted ? { updaters: targeted } : {}),
    owned: mine.map((a) => ({
      region: a.spec.region,
      name: a.metadata.name,
      state: a.status?.state ?? 'Unknown',
      ...(a.status?.reason ? { reason: a.status.reason } : {}),
    })),
    ...(strategy ? { strategy } : {}),
  };
}

const notFoundAs =
  (error: () => Error) =>
  (err: unknown): never => {
    throw isNotFound(err) ? error() : err;
  };

/** Every Armada and ArmadaSet of an environment (ArmadaSets first), sorted by name. */
export async function queryArmadas(client: GameFabricClient, environment: string): Promise<ArmadasView> {
  const missing = notFoundAs(() => missingEnvironment(environment));
  const [armadas, sets, updaters] = await Promise.all([
    client.listArmadas(environment).catch(missing),
    client.listArmadaSets(environment).catch(missing),
    readUpdaters(client, environment),
  ]);
  const tags = await imageTags(client, [
    ...armadas.flatMap((a) => a.spec.template.spec.containers),
    ...sets.flatMap((s) => s.spec.template.spec.containers),
  ]);
  const byName = <T extends { name: string }>(list: T[]) => list.sort((a, b) => a.name.localeCompare(b.name));
  return {
    environment,
    fleets: [
      ...byName(sets.map((s) => armadaSetView(s, armadas, tags, updaters))),
      ...byName(armadas.map((a) => armadaView(a, tags, updaters))),
    ],
    updatersKnown: updaters !== undefined,
  };
}

/**
 * One Armada, the whole picture. A name that is an ArmadaSet there (the
 * `armadas` list shows both kinds) answers with the ArmadaSet; NotFoundError
 * with a did-you-mean when there is neither.
 */
export async function queryArmada(
  client: GameFabricClient,
  environment: string,
  name: string,
): Promise<FleetView> {
  let armada: Armada;
  try {
    armada = await client.getArmada(environment, name);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    const isSet = await client.getArmadaSet(environment, name).then(
      () => true,
      () => false,
    );
    if (isSet) return queryArmadaSet(client, environment, name);
    throw await missingIn('armada', name, environment, async () =>
      (await client.listArmadas(environment)).map((a) => a.metadata.name),
    );
  }
  const [tags, updaters, sites] = await Promise.all([
    imageTags(client, armada.spec.template.spec.containers),
    readUpdaters(client, environment),
    sitesIfDegraded(client, environment, armada),
  ]);
  const servers = await serversView(client, environment, 'Armada', name, undefined, tags);
  return { ...armadaView(armada, tags, updaters), ...(sites ? { sites } : {}), servers };
}

/** One ArmadaSet with the Armadas it owns. NotFoundError with a did-you-mean when there is none. */
export async function queryArmadaSet(
  client: GameFabricClient,
  environment: string,
  name: string,
): Promise<FleetView> {
  const set = await client.getArmadaSet(environment, name).catch(async (err) => {
    if (!isNotFound(err)) throw err;
    const armada = await client.getArmada(environment, name).catch(() => undefined);
    if (armada) {
      throw new NotFoundError(
        'ArmadaSet',
        name,
        `No ArmadaSet ${quote(name)} in environment ${quote(environment)}: ${quote(name)} is an armada there (\`armada show ${environment} ${name}\`).`,
      );
    }
    throw await missingIn('ArmadaSet', name, environment, async () =>
      (await client.listArmadaSets(environment)).map((s) => s.metadata.name),
    );
  });
  const [armadas, tags, updaters, sites] = await Promise.all([
    client.listArmadas(environment),
    imageTags(client, set.spec.template.spec.containers),
    readUpdaters(client, environment),
    sitesIfDegraded(client, environment, set),
  ]);
  const servers = await serversView(client, environment, 'ArmadaSet', name, armadas, tags);
  return { ...armadaSetView(set, armadas, tags, updaters), ...(sites ? { sites } : {}), servers };
}
