/**
 * The GameFabric client: one object with every operation the bot needs,
 * composed from the request funnel, the token source and one module per
 * resource group. Everything it depends on (fetch, clock, randomness, logger)
 * comes in through the options.
 */
import fetch from 'node-fetch';
import type {
  Armada,
  ArmadaSet,
  Environment,
  ImageUpdater,
  Location,
  Site,
} from '../api-shapes/armada-resources.js';
import type { ArmadaServerStates } from '../api-shapes/armada-server-states.js';
import {
  API_VERSIONS,
  type Branch,
  type Formation,
  type FormationVessel,
  type Image,
  type ImagePromotion,
  type JsonPatchOperation,
  type Region,
  type SchedulingStrategy,
  type Vessel,
} from '../api-shapes/resources.js';
import { type Clock, systemClock } from '../runtime/clock.js';
import { type Logger, silentLogger } from '../runtime/logger.js';
import {
  type DistributionTarget,
  type FleetKind,
  type GuardedFleetWrite,
  getFleet,
  type ImageTarget,
  listFleets,
  patchFleet,
  type ReplicaSettings,
  setDistribution,
  setTemplateImage,
} from './armadas.js';
import {
  createServiceAccountTokenSource,
  createStaticTokenSource,
  TOKEN_PATH,
  TokenResponseSchema,
  type TokenSource,
} from './auth.js';
import { listBranches } from './branches.js';
import {
  appendVesselToFormation,
  createFormation,
  type FormationCreate,
  getFormation,
  listFormations,
  patchFormation,
  removeVesselFromFormation,
} from './formations.js';
import { listEnvironments, listImageUpdaters } from './image-updaters.js';
import {
  createImagePromotion,
  findImage,
  getImagePromotion,
  listImages,
  type PromoteImageInput,
  promoteImage,
} from './images.js';
import { streamVesselLogs, vesselLogs } from './logs.js';
import {
  createRegion,
  getRegion,
  listRegions,
  patchRegion,
  type RegionCreate,
  setRegionTypeScheduling,
} from './regions.js';
import { createRequester, type FetchLike, type Requester } from './request.js';
import { type RetryPolicy, resolveRetryPolicy } from './retry.js';
import { createSecretRegistry } from './secrets.js';
import { listArmadaServerStates } from './server-states.js';
import { listGameServerNames, listLocations, listSites, terminateGameServer } from './sites.js';
import {
  createVesselWithFallback,
  deleteVessel,
  getVessel,
  listVessels,
  type VesselApiVersion,
  type VesselCreate,
} from './vessels.js';

export * from './armada-errors.js';
export type {
  DistributionTarget,
  FleetKind,
  GuardedFleetWrite,
  ImageTarget,
  ReplicaSettings,
} from './armadas.js';
export * from './errors.js';
export type { FormationCreate } from './formations.js';
export type { PromoteImageInput } from './images.js';
export { splitLines } from './lines.js';
export type { RegionCreate } from './regions.js';
export type { VesselCreate } from './vessels.js';

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_RENEW_BEFORE_MS = 5 * 60_000;

type GameFabricAuth = { token: string } | { username: string; password: string; clientId?: string };

export interface GameFabricClientOptions {
  baseUrl: string;
  auth: GameFabricAuth;
  /** Default: node-fetch. */
  fetch?: FetchLike;
  /** Per request; for log streams, until the headers arrive. Default 15000. */
  timeoutMs?: number;
  /**
   * The clock the timeout runs on. Default: real time, whatever `clock` is (a stalled socket
   * shows only in real time); tests that know when their simulator holds a call pass theirs.
   */
  timeoutClock?: Clock;
  /** Default: 4 attempts, 200 ms base delay, 5000 ms cap. */
  retry?: Partial<RetryPolicy>;
  /** Sleeps for backoff and reads the time for token expiry. Default: the system clock. */
  clock?: Clock;
  /** Jitter source. Default: Math.random. */
  random?: () => number;
  /** Gets method, path, status, ms and attempt of each request; never headers. Default: silent. */
  logger?: Logger;
  /** apiVersion put on created Vessels, until the API refuses it (then the other one). Default: the seed's `formation/v1beta1`. */
  vesselApiVersion?: string;
  /** Renew a service-account token this long before it expires. Default: 5 minutes. */
  renewBeforeMs?: number;
  /** The most of one answer the client reads whole; a larger one is an InvalidResponse naming its size. Default: 32 MiB. */
  maxResponseBytes?: number;
}

/**
 * Room for tens of thousands of Vessels in one list (a few KiB each), while
 * an answer past it cannot take the process anywhere near its memory limit.
 */
const DEFAULT_MAX_RESPONSE_BYTES = 32 * 2 ** 20;

export interface GameFabricClient {
  /** Every Branch (name and display name). */
  listBranches(): Promise<Branch[]>;
  /** Images in a branch, optionally narrowed by image name and/or tag. */
  listImages(branch: string, filter?: { image?: string; tag?: string }): Promise<Image[]>;
  /** One image by name and tag; ImageNotFoundError when there is none. */
  findImage(branch: string, image: string, tag: string): Promise<Image>;
  /** Creates an ImagePromotion in its `metadata.branch`; a 409 for its name means it already existed. */
  createImagePromotion(
    promotion: ImagePromotion,
  ): Promise<{ promotion: ImagePromotion; alreadyExisted: boolean }>;
  /** One ImagePromotion by name in its target branch; ApiError 404 when there is none (used to verify after a crash). */
  getImagePromotion(branch: string, name: string): Promise<ImagePromotion>;
  /** Seed rule 4: look up the internal image name in the source branch and promote it to the target. */
  promoteImage(
    input: PromoteImageInput,
  ): Promise<{ imageName: string; promotion: ImagePromotion; alreadyExisted: boolean }>;
  /** Creates a standalone Vessel (kind and apiVersion filled in). */
  createVessel(env: string, vessel: VesselCreate): Promise<Vessel>;
  /** Every Vessel in the environment, with status state and reason. */
  listVessels(env: string): Promise<Vessel[]>;
  /** One Vessel; ApiError 404 when it is gone. */
  getVessel(env: string, name: string): Promise<Vessel>;
  /** Deletes a standalone Vessel (it goes Terminating, then away). */
  deleteVessel(env: string, name: string): Promise<void>;
  /** Recent log lines. */
  vesselLogs(
    env: string,
    name: string,
    opts?: { container?: string; tailLines?: number; signal?: AbortSignal },
  ): Promise<string[]>;
  /** New log lines as they arrive (follow=true, after the last `tailLines` lines), until aborted or the stream ends. */
  streamVesselLogs(
    env: string,
    name: string,
    opts?: { container?: string; tailLines?: number; signal?: AbortSignal },
  ): AsyncIterable<string>;
  /** Every Formation in the environment. */
  listFormations(env: string): Promise<Formation[]>;
  /** One Formation, with spec.vessels (empty when the service omits it). */
  getFormation(env: string, name: string): Promise<Formation>;
  /** Creates a Formation (kind and apiVersion filled in). */
  createFormation(env: string, formation: FormationCreate): Promise<Formation>;
  /** Raw JSON Patch (application/json-patch+json); not retried except on 429. */
  patchFormation(env: string, name: string, ops: JsonPatchOperation[]): Promise<Formation>;
  /** Guarded append to spec.vessels; DuplicateVesselError, ConcurrentModificationError. */
  appendVesselToFormation(
    env: string,
    formation: string,
    vessel: FormationVessel,
    opts?: { maxAttempts?: number },
  ): Promise<{ formation: Formation; index: number; attempts: number }>;
  /** Guarded remove by name; VesselNotInFormationError, ConcurrentModificationError. */
  removeVesselFromFormation(
    env: string,
    formation: string,
    vesselName: string,
    opts?: { maxAttempts?: number },
  ): Promise<{ formation: Formation; removedIndex: number; removed: FormationVessel; attempts: number }>;
  /** Every Region in the environment. */
  listRegions(env: string): Promise<Region[]>;
  /** One Region by name. */
  getRegion(env: string, name: string): Promise<Region>;
  /** Creates a Region (kind and apiVersion filled in). */
  createRegion(env: string, region: RegionCreate): Promise<Region>;
  /** Raw JSON Patch on a Region; not retried except on 429. */
  patchRegion(env: string, name: string, ops: JsonPatchOperation[]): Promise<Region>;
  /** Guarded change of one Region Type's scheduling; RegionTypeNotFoundError, ConcurrentModificationError. */
  setRegionTypeScheduling(
    env: string,
    region: string,
    typeName: string,
    strategy: SchedulingStrategy,
    opts?: { maxAttempts?: number },
  ): Promise<{ region: Region; previous: string; attempts: number }>;
  /** Every Armada in the environment, with status. */
  listArmadas(env: string): Promise<Armada[]>;
  /** One Armada; ApiError 404 when there is none. */
  getArmada(env: string, name: string): Promise<Armada>;
  /** Every ArmadaSet in the environment, with status. */
  listArmadaSets(env: string): Promise<ArmadaSet[]>;
  /** One ArmadaSet; ApiError 404 when there is none. */
  getArmadaSet(env: string, name: string): Promise<ArmadaSet>;
  /**
   * Merge patch of an Armada's or ArmadaSet's `spec`, guarded by `revision`
   * when given (409 Conflict when the object moved); not retried except on 429.
   */
  patchFleet(
    kind: FleetKind,
    env: string,
    name: string,
    revision: string | undefined,
    spec: Record<string, unknown>,
  ): Promise<Armada | ArmadaSet>;
  /** Guarded change of one region type's replicas; ArmadaMovedError, RegionTypeNotInDistributionError, ConcurrentModificationError. */
  setDistribution(
    target: DistributionTarget,
    expected: ReplicaSettings,
    next: ReplicaSettings,
    opts?: { maxAttempts?: number },
  ): Promise<GuardedFleetWrite>;
  /** Guarded change of one template container's image; ArmadaMovedError, ContainerNotInTemplateError. */
  setTemplateImage(
    target: ImageTarget,
    expectedImage: string | undefined,
    image: string,
    opts?: { maxAttempts?: number },
  ): Promise<GuardedFleetWrite>;
  /** Every ImageUpdater in the environment. */
  listImageUpdaters(env: string): Promise<ImageUpdater[]>;
  /** Every Environment (name and display name). */
  listEnvironments(): Promise<Environment[]>;
  /** Every Site (capacity cluster) the account may see: what explains a Degraded fleet. */
  listSites(): Promise<Site[]>;
  /** Every Location, each listing its Sites (path inferred): how a Region's Locations reach Sites. */
  listLocations(): Promise<Location[]>;
  /** Terminates a game server on a Site; ApiError 404 when there is none. */
  terminateGameServer(site: string, name: string): Promise<void>;
  /** The names of the game servers on a Site (path inferred). */
  listGameServerNames(site: string): Promise<string[]>;
  /**
   * Every Armada's game servers by state (ArmadaGameServerStates; shape inferred, read
   * liberally); ApiError 403/404 when the API will not say.
   */
  listArmadaServerStates(env: string): Promise<ArmadaServerStates[]>;
}

/** Builds a client from its options; nothing is sent until the first call. */
export function createGameFabricClient(options: GameFabricClientOptions): GameFabricClient {
  const { auth } = options;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const secrets = 'token' in auth ? createSecretRegistry(auth.token) : createSecretRegistry(auth.password);

  const tokens: TokenSource =
    'token' in auth
      ? createStaticTokenSource(auth.token)
      : createServiceAccountTokenSource({
          username: auth.username,
          password: auth.password,
          clientId: auth.clientId,
          clock,
          renewBeforeMs: options.renewBeforeMs ?? DEFAULT_RENEW_BEFORE_MS,
          secrets,
          logger,
          // Logins go through the same funnel (timeout, retries, redaction), without a token.
          // `http` is declared below; this only runs once a request is made, long after.
          exchange: (form) =>
            http.json(
              {
                method: 'POST',
                path: TOKEN_PATH,
                body: { form },
                anonymous: true,
                responseHasSecrets: true,
                retry: 'idempotent',
              },
              TokenResponseSchema,
              'token response',
            ),
        });
  const http: Requester = createRequester({
    baseUrl: options.baseUrl,
    fetch: options.fetch ?? fetch,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    timeoutClock: options.timeoutClock,
    retry: resolveRetryPolicy(options.retry),
    clock,
    random: options.random ?? Math.random,
    logger,
    secrets,
    tokens,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  });
  // Remembered across calls: once the API refuses one version, the other is used from then on.
  const vesselApiVersion: VesselApiVersion = {
    current: options.vesselApiVersion ?? API_VERSIONS.vesselCreate,
  };

  return {
    listBranches: () => listBranches(http),
    listImages: (branch, filter) => listImages(http, branch, filter),
    findImage: (branch, image, tag) => findImage(http, branch, image, tag),
    createImagePromotion: (promotion) => createImagePromotion(http, promotion),
    getImagePromotion: (branch, name) => getImagePromotion(http, branch, name),
    promoteImage: (input) => promoteImage(http, input),
    createVessel: (env, vessel) => createVesselWithFallback(http, env, vessel, vesselApiVersion),
    listVessels: (env) => listVessels(http, env),
    getVessel: (env, name) => getVessel(http, env, name),
    deleteVessel: (env, name) => deleteVessel(http, env, name),
    vesselLogs: (env, name, opts) => vesselLogs(http, env, name, opts),
    streamVesselLogs: (env, name, opts) => streamVesselLogs(http, env, name, opts),
    listFormations: (env) => listFormations(http, env),
    getFormation: (env, name) => getFormation(http, env, name),
    createFormation: (env, formation) => createFormation(http, env, formation),
    patchFormation: (env, name, ops) => patchFormation(http, env, name, ops),
    appendVesselToFormation: (env, formation, vessel, opts) =>
      appendVesselToFormation(http, env, formation, vessel, opts),
    removeVesselFromFormation: (env, formation, vesselName, opts) =>
      removeVesselFromFormation(http, env, formation, vesselName, opts),
    listRegions: (env) => listRegions(http, env),
    getRegion: (env, name) => getRegion(http, env, name),
    createRegion: (env, region) => createRegion(http, env, region),
    patchRegion: (env, name, ops) => patchRegion(http, env, name, ops),
    setRegionTypeScheduling: (env, region, typeName, strategy, opts) =>
      setRegionTypeScheduling(http, env, region, typeName, strategy, opts),
    listArmadas: (env) => listFleets(http, 'Armada', env),
    getArmada: (env, name) => getFleet(http, 'Armada', env, name),
    listArmadaSets: (env) => listFleets(http, 'ArmadaSet', env),
    getArmadaSet: (env, name) => getFleet(http, 'ArmadaSet', env, name),
    patchFleet: (kind, env, name, revision, spec) => patchFleet(http, kind, env, name, revision, spec),
    setDistribution: (target, expected, next, opts) => setDistribution(http, target, expected, next, opts),
    setTemplateImage: (target, expectedImage, image, opts) =>
      setTemplateImage(http, target, expectedImage, image, opts),
    listImageUpdaters: (env) => listImageUpdaters(http, env),
    listEnvironments: () => listEnvironments(http),
    listSites: () => listSites(http),
    listLocations: () => listLocations(http),
    terminateGameServer: (site, name) => terminateGameServer(http, site, name),
    listGameServerNames: (site) => listGameServerNames(http, site),
    listArmadaServerStates: (env) => listArmadaServerStates(http, env),
  };
}
