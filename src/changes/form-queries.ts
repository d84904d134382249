/**
 * What forms read to offer choices: the hosting API's lists, shaped for a
 * picker. An environment that does not exist is an answer here (undefined),
 * not an error, because the person can fix it in the form's environment field.
 * Forms get this object, never the API client, and picker data
 * (form-pickers.ts), never the API's objects.
 */
import type { GameFabricClient } from '../gamefabric/client.js';
import { ApiError, isNotFound } from '../gamefabric/errors.js';
import type { ReadBudget } from '../read-budget/read-budget.js';
import { type BranchInfo, listBranchInfo } from './branches.js';
import {
  armadaPick,
  armadaSetPick,
  type FleetPick,
  type FormationPick,
  formationPick,
  type ImagePick,
  imagePick,
  type RegionPick,
  regionPick,
  type VesselPick,
  vesselPick,
} from './form-pickers.js';
import { candidateNames, firstNamed, type NamedResource } from './named-in-text.js';
import {
  imageSuggestions,
  namedSuggestions,
  type Suggestion,
  type SuggestionSource,
  vesselSuggestions,
} from './suggestions.js';

export type { NamedResource, Suggestion, SuggestionSource };

export interface FormQueries {
  /** The branches to offer (HARBOR_BRANCHES narrows them); undefined when neither the API nor the config says. */
  branches(): Promise<BranchInfo[] | undefined>;
  /** Images of a branch, as the API lists them. */
  images(branch: string): Promise<ImagePick[]>;
  /** Regions of an environment. */
  regions(environment: string): Promise<RegionPick[]>;
  /** One Formation (throws the API's error when it is gone). */
  formation(environment: string, name: string): Promise<FormationPick>;
  /** Vessels of an environment; undefined when there is no such environment. */
  vesselsIn(environment: string): Promise<VesselPick[] | undefined>;
  /** Formation names of an environment; undefined when there is no such environment. */
  formationNamesIn(environment: string): Promise<string[] | undefined>;
  /** Armadas of an environment; undefined when there is no such environment. */
  armadasIn(environment: string): Promise<FleetPick[] | undefined>;
  /** ArmadaSets of an environment; undefined when there is no such environment. */
  armadaSetsIn(environment: string): Promise<FleetPick[] | undefined>;
  /** Environment names from the API; undefined when it refuses to list them (the configured ones serve then). */
  environments(): Promise<string[] | undefined>;
  /** Whether the API knows `environment`: `unknown` when it could not say (error or no answer in time). */
  environmentExists(environment: string): Promise<'exists' | 'missing' | 'unknown'>;
  /**
   * Type-ahead: entries of `source` in `scope` (a branch for images, an environment
   * for vessels) containing `query`, newest first, at most `limit`; none for a scope
   * that does not exist.
   */
  suggest(source: SuggestionSource, scope: string, query: string, limit: number): Promise<Suggestion[]>;
  /** The first vessel or armada `text` names in one of `environments` (a missing environment names nothing). */
  namedIn(text: string, environments: readonly string[]): Promise<NamedResource | undefined>;
}

/**
 * Form queries over `client`, with `restriction` (HARBOR_BRANCHES) narrowing
 * the branches. Type-ahead reads its lists through `budget` (coalesced,
 * cached for seconds, bounded): it asks for a whole list on every keystroke.
 */
export function formQueries(
  client: GameFabricClient,
  budget: ReadBudget,
  restriction?: readonly string[],
): FormQueries {
  const unlessMissing = async <T>(read: Promise<T>): Promise<T | undefined> =>
    read.catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
  return {
    branches: () => listBranchInfo(client, restriction),
    images: async (branch) => (await client.listImages(branch)).map(imagePick),
    regions: async (environment) => (await client.listRegions(environment)).map(regionPick),
    formation: async (environment, name) => formationPick(await client.getFormation(environment, name)),
    vesselsIn: async (environment) => (await unlessMissing(client.listVessels(environment)))?.map(vesselPick),
    formationNamesIn: async (environment) =>
      (await unlessMissing(client.listFormations(environment)))?.map((f) => f.metadata.name),
    armadasIn: async (environment) => (await unlessMissing(client.listArmadas(environment)))?.map(armadaPick),
    armadaSetsIn: async (environment) =>
      (await unlessMissing(client.listArmadaSets(environment)))?.map(armadaSetPick),
    environments: () =>
      client.listEnvironments().then(
        (list) => list.map((e) => e.metadata.name),
        (err: unknown) => {
          // A service account without the environments permission still gets the configured list.
          if (err instanceof ApiError && (err.status === 403 || err.status === 404)) return undefined;
          throw err;
        },
      ),
    environmentExists: (environment) =>
      client.listRegions(environment).then(
        () => 'exists' as const,
        (err: unknown) => (isNotFound(err) ? ('missing' as const) : ('unknown' as const)),
      ),
    suggest: async (source, scope, query, limit) => {
      // One list read per scope, whatever was typed: the filtering is ours, on the list.
      const list = <T>(read: () => Promise<T[]>): Promise<T[]> =>
        unlessMissing(budget.read(`${source}:${scope}`, read)).then((found) => found ?? []);
      switch (source) {
        case 'images':
          return imageSuggestions(await list(() => client.listImages(scope)), query, limit);
        case 'vessels':
          return vesselSuggestions(await list(() => client.listVessels(scope)), query, limit);
        case 'formations':
          return namedSuggestions(await list(() => client.listFormations(scope)), query, limit);
        case 'armadas':
          return namedSuggestions(await list(() => client.listArmadas(scope)), query, limit);
        case 'armadasets':
          return namedSuggestions(await list(() => client.listArmadaSets(scope)), query, limit);
      }
    },
    namedIn: async (text, environments) => {
      const words = candidateNames(text);
      if (words.length === 0) return undefined;
      const listed = await Promise.all(
        environments.map(async (environment) => ({
          environment,
          vessels: (await unlessMissing(client.listVessels(environment))) ?? [],
          armadas: (await unlessMissing(client.listArmadas(environment))) ?? [],
        })),
      );
      return firstNamed(words, listed);
    },
  };
}
