/**
 * The list and show reads that make names discoverable (issue 18.9):
 * `formations <env>`, `regions <env>` and `vessel show <env> <vessel>`. Plain
 * functions over the client returning neutral data; a missing environment or
 * vessel is a UserError naming what exists.
 */

import { schedulingOf } from '../api-shapes/resources.js';
import type { GameFabricClient } from '../gamefabric/client.js';
import { isNotFound } from '../gamefabric/errors.js';
import { imageTags, tagOf } from './image-tags.js';
import { missingEnvironment, missingIn } from './not-found.js';
import { rethrowNotFound, summarizeVessel, type VesselSummary } from './queries.js';

export interface FormationSummary {
  name: string;
  /** How many vessels the formation declares. */
  vessels: number;
  /** The template's images as `image:tag` (the internal name when it cannot be resolved). */
  images: string[];
  /** The formation's own state, when the API reports one. */
  state?: string;
}

/** The formations of an environment, sorted by name. */
export async function queryFormations(
  client: GameFabricClient,
  environment: string,
): Promise<FormationSummary[]> {
  const formations = await client
    .listFormations(environment)
    .catch(rethrowNotFound(missingEnvironment(environment)));
  const containers = formations.flatMap((f) => f.spec.template?.spec.containers ?? []);
  const tags = await imageTags(client, containers);
  return formations
    .map((f) => ({
      name: f.metadata.name,
      vessels: f.spec.vessels.length,
      images: (f.spec.template?.spec.containers ?? []).map((c) => tagOf(tags, c.image)),
      ...(f.status?.state ? { state: f.status.state } : {}),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export interface RegionSummary {
  name: string;
  displayName?: string;
  /** Each region type with its scheduling (Packed when unset). */
  types: { name: string; scheduling: string }[];
}

/** The regions of an environment, sorted by name. */
export async function queryRegions(client: GameFabricClient, environment: string): Promise<RegionSummary[]> {
  const regions = await client
    .listRegions(environment)
    .catch(rethrowNotFound(missingEnvironment(environment)));
  return regions
    .map((r) => ({
      name: r.metadata.name,
      ...(r.spec.displayName ? { displayName: r.spec.displayName } : {}),
      types: r.spec.types.map((t) => ({ name: t.name, scheduling: schedulingOf(t) })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export interface VesselView extends VesselSummary {
  description?: string;
  /** Each container with its image as `image:tag` and the branch it comes from. */
  containers: { name: string; image: string; branch?: string }[];
}

/** One Vessel: its summary and its containers; a missing one names the vessels that exist. */
export async function queryVessel(
  client: GameFabricClient,
  environment: string,
  name: string,
): Promise<VesselView> {
  const vessel = await client.getVessel(environment, name).catch(async (err: unknown) => {
    if (!isNotFound(err)) throw err;
    throw await missingIn('vessel', name, environment, async () =>
      (await client.listVessels(environment)).map((v) => v.metadata.name),
    );
  });
  const containers = vessel.spec.template.spec.containers;
  const tags = await imageTags(client, containers);
  return {
    ...summarizeVessel(vessel, tags),
    ...(vessel.spec.description ? { description: vessel.spec.description } : {}),
    containers: containers.map((c) => ({
      name: c.name,
      image: tagOf(tags, c.image),
      ...(c.branch ? { branch: c.branch } : {}),
    })),
  };
}
