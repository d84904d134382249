/**
 * Read-only queries: plain functions over the client, returning neutral data
 * for renderers and UserErrors (naming what was not found) for users.
 */

import { type Formation, type Region, schedulingOf, type Vessel } from '../api-shapes/resources.js';
import type { GameFabricClient } from '../gamefabric/client.js';
import { isNotFound } from '../gamefabric/errors.js';
import { describeState } from './follow.js';
import { imageTags, tagOf } from './image-tags.js';
import { missingBranch, missingEnvironment, missingIn } from './not-found.js';

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
  const items = await client.listImages(branch, { image, tag }).catch(rethrowNotFound(missingBranch(branch)));
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
  /** Each container's image as `image:tag` (the internal name when it cannot be resolved), in order. */
  images: string[];
}

/** Vessels in an environment with state and reason, sorted by name. */
export async function queryVessels(client: GameFabricClient, environment: string): Promise<VesselSummary[]> {
  const vessels = await client
    .listVessels(environment)
    .catch(rethrowNotFound(missingEnvironment(environment)));
  const tags = await imageTags(
    client,
    vessels.flatMap((v) => v.spec.template.spec.containers),
  );
  return vessels.map((v) => summarizeVessel(v, tags)).sort((a, b) => a.name.localeCompare(b.name));
}

/** One Vessel's summary line data; `tags` turns internal image names into `image:tag`. */
export function summarizeVessel(v: Vessel, tags: ReadonlyMap<string, string> = new Map()): VesselSummary {
  const formation = v.metadata.ownerReferences?.find((o) => o.kind === 'Formation')?.name;
  return {
    name: v.metadata.name,
    region: v.spec.region,
    state: describeState(v),
    ...(formation ? { formation } : {}),
    images: v.spec.template.spec.containers.map((c) => tagOf(tags, c.image)),
  };
}

/** A container override of one Formation vessel: what it changes, with images as `image:tag`. */
interface OverrideView {
  container: string;
  image?: string;
  args?: string[];
  command?: string[];
  /** How many environment variables the override sets (their values may be secrets). */
  envCount?: number;
}

export interface FormationView {
  formation: Formation;
  /** Template containers with their image as `image:tag` and the internal name as detail. */
  containers: { name: string; branch?: string; image: string; internalName?: string }[];
  vessels: { index: number; name: string; region: string; overrides: OverrideView[]; state: string }[];
}

/** A Formation with its vessels by index and each one's live state. */
export async function queryFormation(
  client: GameFabricClient,
  environment: string,
  name: string,
): Promise<FormationView> {
  const formation = await client.getFormation(environment, name).catch(async (err) => {
    if (!isNotFound(err)) throw err;
    throw await missingIn('formation', name, environment, async () =>
      (await client.listFormations(environment)).map((f) => f.metadata.name),
    );
  });
  const template = formation.spec.template?.spec.containers ?? [];
  const branchOf = new Map(template.map((c) => [c.name, c.branch]));
  // An entry without a name is the template container at its position (the provider's override type has no name).
  const overrides = formation.spec.vessels.flatMap((v) =>
    (v.override?.containers ?? []).map((c, i) => ({ ...c, name: c.name ?? template[i]?.name ?? '' })),
  );
  const [liveVessels, tags] = await Promise.all([
    client.listVessels(environment),
    // Override images come from the branch of the template container they replace.
    imageTags(client, [
      ...template,
      ...overrides.map((c) => ({ branch: branchOf.get(c.name), image: c.image })),
    ]),
  ]);
  const live = new Map(liveVessels.map((v) => [v.metadata.name, v]));
  return {
    formation,
    containers: template.map((c) => ({
      name: c.name,
      ...(c.branch ? { branch: c.branch } : {}),
      image: tagOf(tags, c.image),
      ...(c.image && tags.has(c.image) ? { internalName: c.image } : {}),
    })),
    vessels: formation.spec.vessels.map((v, index) => ({
      index,
      name: v.name,
      region: v.region,
      overrides: describeOverrides(formation, v, tags),
      state: describeState(live.get(v.name)),
    })),
  };
}

/**
 * What each override entry changes, images as `image:tag`. An entry without a
 * name is the template container at its position (the provider's override
 * type carries no name); entries that change nothing only keep a place.
 */
function describeOverrides(
  formation: Formation,
  entry: Formation['spec']['vessels'][number],
  tags: Parameters<typeof tagOf>[0],
): OverrideView[] {
  const template = formation.spec.template?.spec.containers ?? [];
  const out: OverrideView[] = [];
  for (const [i, c] of (entry.override?.containers ?? []).entries()) {
    const command = Array.isArray(c.command) ? (c.command as unknown[]).map(String) : undefined;
    const envCount = Array.isArray(c.env) ? c.env.length : 0;
    if (!c.image && !c.args && !command && envCount === 0) continue;
    out.push({
      container: c.name ?? template[i]?.name ?? `container ${i + 1}`,
      ...(c.image ? { image: tagOf(tags, c.image) } : {}),
      ...(c.args ? { args: c.args } : {}),
      ...(command ? { command } : {}),
      ...(envCount > 0 ? { envCount } : {}),
    });
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
  const region = await client.getRegion(environment, name).catch(async (err) => {
    if (!isNotFound(err)) throw err;
    throw await missingIn('region', name, environment, async () =>
      (await client.listRegions(environment)).map((r) => r.metadata.name),
    );
  });
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

// A 404 becomes `error` (a NotFoundError naming what is missing); anything else passes through.
export function rethrowNotFound(error: Error): (err: unknown) => never {
  return (err) => {
    throw isNotFound(err) ? error : err;
  };
}
