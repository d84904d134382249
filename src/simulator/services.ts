/** What request handlers are given: the state, the clock, settings and the other parts. */
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { AuthService } from './auth.js';
import type { FaultSet } from './faults.js';
import type { HeldRequests } from './held-requests.js';
import type { RequestContext } from './http-utils/context.js';
import type { LifecycleSettings } from './lifecycle.js';
import type { LogStreams } from './log-streams.js';
import type { OverrideSettings } from './overrides.js';
import type { RequestLog } from './request-log.js';
import type { SimStore } from './store.js';

export interface SimSettings extends LifecycleSettings, OverrideSettings {
  logLinesPerSecond: number;
  tokenTtlSeconds: number;
  realShapes: boolean;
  /** Armada and ArmadaSet status carries replica counts (not public; off by default under realShapes). */
  fleetCounts: boolean;
  /** ArmadaGameServerStates are served (off by default; shape inferred). */
  serverStates: boolean;
  logReplay: boolean;
  refusedVesselApiVersions: readonly string[];
}

export interface SimServices {
  store: SimStore;
  clock: Clock;
  settings: SimSettings;
  auth: AuthService;
  logStreams: LogStreams;
  faults: FaultSet;
  requests: RequestLog;
  /** Requests a fault holds unanswered, for tests that time calls out on their own clock. */
  held: HeldRequests;
  logger: Logger;
  /** Runs the controllers and removes Vessels whose termination finished (ending their log streams). */
  sync(): void;
}

/** A route handler; params are the decoded path parameters. */
export type Handler = (
  ctx: RequestContext,
  params: Record<string, string>,
  svc: SimServices,
) => Promise<void> | void;
