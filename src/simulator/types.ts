/**
 * Public types of the GameFabric API simulator: its options, the handle tests
 * hold, and the shapes of its initial data, fault rules and request log.
 */
import type { Armada, ArmadaSet, ImageUpdater, Location } from '../api-shapes/armada-resources.js';
import type { Formation, Image, Region, Vessel } from '../api-shapes/resources.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';

/** What a test set on a Site; absent fields keep their defaults (Connected, not cordoned). */
export interface SiteOverride {
  state?: string;
  reason?: string;
  cordoned?: boolean;
}

/** Resources a service account holds permissions on (logs count as GET on VESSELS). */
export const SIM_RESOURCES = [
  'BRANCHES',
  'IMAGES',
  'IMAGEPROMOTIONS',
  'VESSELS',
  'FORMATIONS',
  'REGIONS',
  'ARMADAS',
  'ARMADASETS',
  'IMAGEUPDATERS',
  'ENVIRONMENTS',
  'SITES',
  'LOCATIONS',
  'GAMESERVERS',
  'ARMADAGAMESERVERSTATES',
] as const;
export type SimResource = (typeof SIM_RESOURCES)[number];

/** Methods a permission is granted for. */
export const SIM_METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;
export type SimMethod = (typeof SIM_METHODS)[number];

/** Which methods a service account may use, per resource; a missing resource grants nothing. */
export type Permissions = Partial<Record<SimResource, readonly SimMethod[]>>;

/**
 * A role rule as the real platform grants them (the provider's role
 * resource): lowercase verbs (get, list, watch, post, put, patch, delete) on
 * plural resources of an API group, with subresources such as `vessels/logs`,
 * optionally narrowed to environments, `scopes` (branches, for the
 * branch-scoped container resources) and object names. `*` matches anything;
 * an absent list too.
 */
export interface PermissionRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  environments?: string[];
  scopes?: string[];
  resourceNames?: string[];
}

/**
 * A service account: its login (name is the e-mail-like username), static
 * tokens and permissions. With `rules`, only the rules count (the real
 * platform's model); without, the seed's per-resource methods.
 */
export interface ServiceAccountData {
  name: string;
  password?: string;
  tokens?: string[];
  permissions: Permissions;
  rules?: PermissionRule[];
}

/** The objects of one environment. Formation-owned Vessels are created by the controller, not listed here. */
interface EnvironmentData {
  regions?: Region[];
  formations?: Formation[];
  vessels?: Vessel[];
  /** Standalone Armadas; ArmadaSet-owned ones are created by the controller. */
  armadas?: Armada[];
  armadaSets?: ArmadaSet[];
  imageUpdaters?: ImageUpdater[];
}

/** Initial state: images per branch, objects per environment, service accounts. */
export interface SimulatorData {
  branches: Record<string, Image[]>;
  /** Branch display names (`spec.displayName` of the Branch objects); a branch without one shows its name. */
  branchDisplayNames?: Record<string, string>;
  environments: Record<string, EnvironmentData>;
  /**
   * Locations (cluster-scoped), each listing its Sites in `spec.sites`. A
   * Location a Region names and this list does not declare has one Site,
   * `<location>-01`.
   */
  locations?: Location[];
  serviceAccounts?: ServiceAccountData[];
}

/**
 * A fault to inject. `path` is matched against the request path: `*` matches
 * within one segment, `**` matches across segments.
 */
export interface FaultRule {
  method?: string;
  path: string;
  latencyMs?: number;
  status?: number;
  share?: number;
  retryAfterSeconds?: number;
  dropConnection?: boolean;
  /** With `status`: answer in plain text, as a gateway in front of the API would, not with a Status body. */
  plainText?: boolean;
  cutLogStreamAfterLines?: number;
  /**
   * A fault AFTER the request was handled (the write is applied): the answer
   * is replaced by a 2xx with broken JSON (`bad-json`), an empty 2xx
   * (`empty`), a 2xx of the wrong shape (`wrong-shape`), a plain-text 409
   * (`conflict-plain`), a 500 Status (`error-500`), a dropped connection
   * (`reset`) or no answer at all (`hang`). `land-late` holds the request
   * without answering until the client gives up, then applies it
   * `landAfterMs` later.
   */
  afterWrite?: AfterWriteFault;
  /** For `land-late`: how long (simulator clock) after the client gave up the write lands; default 60000. */
  landAfterMs?: number;
  /**
   * Before the request is handled, the controller writes the status of the
   * Armada or ArmadaSet at the path: its `metadata.revision` moves, its spec
   * does not, as a status write between a client's read and its patch would
   * (Kubernetes bumps resourceVersion on status writes; inferred for GameFabric).
   */
  writeStatusFirst?: boolean;
  times?: number;
}

export type AfterWriteFault =
  | 'bad-json'
  | 'empty'
  | 'wrong-shape'
  | 'conflict-plain'
  | 'error-500'
  | 'reset'
  | 'hang'
  | 'land-late';

export const AFTER_WRITE_FAULTS: readonly AfterWriteFault[] = [
  'bad-json',
  'empty',
  'wrong-shape',
  'conflict-plain',
  'error-500',
  'reset',
  'hang',
  'land-late',
];

/** One /api or /auth request as the simulator saw it; status 0 while in flight or when dropped. */
export interface RequestLogEntry {
  at: number;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  account?: string;
}

/** Read-only views of the current state (with computed status), for assertions. */
export interface SimulatorStateView {
  getVessel(env: string, name: string): Vessel | undefined;
  listVessels(env: string): Vessel[];
  getFormation(env: string, name: string): Formation | undefined;
  getRegion(env: string, name: string): Region | undefined;
  listImages(branch: string): Image[];
  getArmada(env: string, name: string): Armada | undefined;
  getArmadaSet(env: string, name: string): ArmadaSet | undefined;
}

export interface SimulatorOptions {
  /** Default 0 (a free port); the host is always 127.0.0.1. */
  port?: number;
  /** Default systemClock; Vessel lifecycles, token expiry, latency and log pacing use it. */
  clock?: Clock;
  /** Simulated time per Vessel lifecycle step (default 1000). */
  stepMs?: number;
  /** Terminating -> gone (default 2000). */
  terminationMs?: number;
  /** Generated lines per second per follow stream; 0 = only lines pushed with emitLogLines (default 5). */
  logLinesPerSecond?: number;
  /** Initial state (default demoData()). */
  data?: SimulatorData;
  /** Initial fault rules. */
  faults?: FaultRule[];
  /** Source of randomness for fault shares and ids (default a seeded PRNG). */
  random?: () => number;
  /** Lifetime of tokens issued by POST /auth/token (default 86400). */
  tokenTtlSeconds?: number;
  /**
   * Serve what the real API returns rather than the seed's tidy shapes: the
   * real-shapes demo data (when no `data` is given), a token endpoint that
   * redirects, and Formation override entries applied by position rather
   * than by name. Both Vessel apiVersions stay accepted (`formation/v1beta1`
   * is the one in the docs' example, examples.md "Creating a Vessel").
   */
  realShapes?: boolean;
  /**
   * Armada and ArmadaSet status carries replica counts (`replicas`,
   * `readyReplicas`, `allocatedReplicas`, `updatedReplicas`, per region type).
   * No public source names them: default true, false with realShapes.
   */
  fleetCounts?: boolean;
  /**
   * Serve ArmadaGameServerStates (game servers per Armada by state; the
   * resource is named in the docs, its shape is the simulator's, inferred).
   * Default false: the API answers 404 for it, as one that does not serve it.
   */
  serverStates?: boolean;
  /** Log requests ignore `tailLines` and replay the whole log (default false). */
  logReplay?: boolean;
  /**
   * Drop `image` from Formation override entries (the provider's override
   * type has none), so an image override never reaches the Vessel (default false).
   */
  ignoreOverrideImages?: boolean;
  /** Vessel create apiVersions answered with a 400 naming the version (default none; tests of the client's fallback set it). */
  refusedVesselApiVersions?: string[];
  logger?: Logger;
}

export interface Simulator {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The demo static token (full permissions). */
  token: string;
  /** Live request log (the same array, cleared in place). */
  requests: RequestLogEntry[];
  /** Requests whose method matches (case-insensitive, '*' for any) and whose path starts with the prefix. */
  countRequests(method: string, pathPrefix: string): number;
  /** Resolves once at least `count` (default 1) such requests have arrived, counted as `countRequests` counts. */
  whenRequests(method: string, pathPrefix: string, count?: number): Promise<void>;
  /** Empties the request log. */
  clearRequests(): void;
  setFaults(rules: FaultRule[]): void;
  clearFaults(): void;
  /**
   * Resolves once a fault holds every one of these calls unanswered (calls named by the
   * `x-sim-call` request header): they can then end only by their client's timeout.
   */
  whenHeld(callIds: readonly string[]): Promise<void>;
  /** Makes game servers of image `internalName` in `branch` crash on start with `reason` (undefined: they run again). */
  setCrashingImage(branch: string, internalName: string, reason: string | undefined): void;
  /** Sets a Site's state, reason or cordon (`POST /_sim/sites/{name}`); every Site is Connected otherwise. */
  setSite(name: string, site: SiteOverride | undefined): void;
  /**
   * Deletes an image from its branch, as a branch's Image Retention Policy or a person in the
   * console does (docs pushing-container-images.md, deleting-container-images.md). Throws when a
   * template uses it: "Images that are actively in use cannot be deleted".
   */
  deleteImage(branch: string, internalName: string): void;
  /** Appends lines to a Vessel container's recent buffer and to its open follow streams. */
  emitLogLines(env: string, vessel: string, lines: string[], container?: string): void;
  /** Number of log follow streams currently open. */
  openLogStreams(): number;
  /** Resolves once exactly `count` follow streams are open. */
  whenLogStreams(count: number): Promise<void>;
  state: SimulatorStateView;
  addServiceAccount(account: ServiceAccountData): void;
  /** Closes the server, every open connection and every log stream. */
  stop(): Promise<void>;
}
