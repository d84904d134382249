/**
 * Read-only queries: plain functions over the client, returning neutral data
 * for renderers and UserErrors (naming what was not found) for users.
 */
import type { GameFabricClient } from '../gamefabric/client.js';
import { isNotFound } from '../gamefabric/errors.js';
import { type Formation, type Region, schedulingOf, type Vessel } from '../gamefabric/resources.js';
import { UserError } from './errors.js';
import { describeState } from './follow.js';

export interface ImageGroup {
  image: string;
  tags: { tag: string; internalName: string }[];
}

/** Images in a branch grouped by image name, tags newest-looking first; narrowed by `image[:tag]`. */
export async function queryImages(
  client: GameFabricClient,
  branch: string,
  ref?: string,
): Promise<ImageGroup[]> {
  const [image, tag] = ref ? splitRef(ref) : [undefined, undefined];
  const items = await notFoundAs(client.listImages(branch, { image, tag }), `No branch ${branch}.`);
  const groups = new Map<string, ImageGroup>();
  for (const item of items) {
    const group = groups.get(item.spec.image) ?? { image: item.spec.image, tags: [] };
    group.tags.push({ tag: item.spec.tag, internalName: item.metadata.name });
    groups.set(item.spec.image, group);
  }
  const sorted = [...groups.values()].sort((a, b) => a.image.localeCompare(b.image));
  for (const g of sorted) g.tags.sort((a, b) => b.tag.localeCompare(a.tag, undefined, { numeric: true }));
  return sorted;
}

export interface VesselSummary {
  name: string;
  region: string;
  state: string;
  formation?: string;
}

/** Vessels in an environment with state and reason, sorted by name. */
export async function queryVessels(client: GameFabricClient, environment: string): Promise<VesselSummary[]> {
  const vessels = await notFoundAs(client.listVessels(environment), `No environment ${environment}.`);
  return vessels.map(summarizeVessel).sort((a, b) => a.name.localeCompare(b.name));
}

/** One Vessel's summary line data. */
export function summarizeVessel(v: Vessel): VesselSummary {
  const formation = v.metadata.ownerReferences?.find((o) => o.kind === 'Formation')?.name;
  return {
    name: v.metadata.name,
    region: v.spec.region,
    state: describeState(v),
    ...(formation ? { formation } : {}),
  };
}

export interface FormationView {
  formation: Formation;
  vessels: { index: number; name: string; region: string; overrides: string[]; state: string }[];
}

/** A Formation with its vessels by index and each one's live state. */
export async function queryFormation(
  client: GameFabricClient,
  environment: string,
  name: string,
): Promise<FormationView> {
  const formation = await notFoundAs(
    client.getFormation(environment, name),
    `No formation ${name} in environment ${environment}.`,
  );
  const live = new Map((await client.listVessels(environment)).map((v) => [v.metadata.name, v]));
  return {
    formation,
    vessels: formation.spec.vessels.map((v, index) => ({
      index,
      name: v.name,
      region: v.region,
      overrides: describeOverrides(formation, v),
      state: describeState(live.get(v.name)),
    })),
  };
}

/**
 * "game-server: image img-1, args --x" per override entry that changes
 * something. An entry without a name is the template container at its
 * position (the provider's override type carries no name).
 */
function describeOverrides(formation: Formation, entry: Formation['spec']['vessels'][number]): string[] {
  const template = formation.spec.template?.spec.containers ?? [];
  const out: string[] = [];
  for (const [i, c] of (entry.override?.containers ?? []).entries()) {
    const command = Array.isArray(c.command) ? (c.command as unknown[]).join(' ') : undefined;
    const env = Array.isArray(c.env) ? c.env.length : 0;
    const parts = [
      c.image && `image ${c.image}`,
      command && `command ${command}`,
      c.args && `args ${c.args.join(' ')}`,
      env > 0 && `${env} env var(s)`,
    ].filter(Boolean);
    if (parts.length === 0) continue; // a placeholder that keeps its container's place
    out.push(`${c.name ?? template[i]?.name ?? `container ${i + 1}`}: ${parts.join(', ')}`);
  }
  return out;
}

export interface RegionView {
  region: Region;
  types: { name: string; scheduling: string; locations: string[] }[];
}

/** A Region with each type's scheduling (Packed when unset). */
export async function queryRegion(
  client: GameFabricClient,
  environment: string,
  name: string,
): Promise<RegionView> {
  const region = await notFoundAs(
    client.getRegion(environment, name),
    `No region ${name} in environment ${environment}.`,
  );
  return {
    region,
    types: region.spec.types.map((t) => ({
      name: t.name,
      scheduling: schedulingOf(t),
      locations: t.locations,
    })),
  };
}

function splitRef(ref: string): [string, string | undefined] {
  const i = ref.lastIndexOf(':');
  return i > 0 ? [ref.slice(0, i), ref.slice(i + 1)] : [ref, undefined];
}

async function notFoundAs<T>(promise: Promise<T>, message: string): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    if (isNotFound(err)) throw new UserError(message, 'not_found');
    throw err;
  }
}
