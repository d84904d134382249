/**
 * The GameFabric API simulator: a local server that behaves like the hosting
 * API (seed contract) for demos, development and end-to-end tests.
 * `startSimulator({ port: 0, clock })` runs it in-process.
 */
import type { Server } from 'node:http';
import { systemClock } from '../runtime/clock.js';
import { silentLogger } from '../runtime/logger.js';
import {
  armadaSetWithStatus,
  reconcileArmadaSets,
  rememberImages,
  runImageUpdaters,
  type UpdaterMemory,
} from './armada-controller.js';
import { armadaWithStatus } from './armada-lifecycle.js';
import { AuthService, DEMO_TOKEN, demoAccount } from './auth.js';
import type { EmitLines } from './control.js';
import { formationWithStatus, reconcile } from './controller.js';
import { loadData } from './data.js';
import { demoData } from './demo-data.js';
import { FaultSet } from './faults.js';
import { HeldRequests } from './held-requests.js';
import { badRequest, notFound } from './http-utils/status.js';
import { deepClone, sortedByName } from './json.js';
import { vesselWithStatus } from './lifecycle.js';
import { LogStreams } from './log-streams.js';
import { seededRandom } from './random.js';
import { realShapesData } from './real-shapes-data.js';
import { regionTypeOrder } from './region-priority.js';
import { RequestLog } from './request-log.js';
import { listen } from './server.js';
import type { SimServices, SimSettings } from './services.js';
import { blockedSites } from './sites.js';
import { SimStore } from './store.js';
import type { Simulator, SimulatorOptions, SimulatorStateView } from './types.js';

export { DEMO_PASSWORD, DEMO_TOKEN, DEMO_USERNAME, FULL_PERMISSIONS } from './auth.js';
export { parseSimulatorData } from './data.js';
export { DEMO_CRASHING_IMAGES, DEMO_VIEWER_TOKEN, demoData } from './demo-data.js';
export { internalImageName } from './image-names.js';
export { REAL_SHAPES, realShapesData } from './real-shapes-data.js';
export type * from './types.js';

function resolveSettings(options: SimulatorOptions): SimSettings {
  const settings: SimSettings = {
    stepMs: options.stepMs ?? 1000,
    terminationMs: options.terminationMs ?? 2000,
    logLinesPerSecond: options.logLinesPerSecond ?? 5,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 86400,
    realShapes: options.realShapes ?? false,
    logReplay: options.logReplay ?? false,
    // No public source names replica counts: the real shapes leave them out.
    fleetCounts: options.fleetCounts ?? !options.realShapes,
    // Named by the docs, shape not public: served only when asked for.
    serverStates: options.serverStates ?? false,
    // The provider's override type has no container name: the real API applies entries by position.
    overrideMatching: options.realShapes ? 'position' : 'name',
    ignoreOverrideImages: options.ignoreOverrideImages ?? false,
    // The docs' Vessel example sends formation/v1beta1 and the provider formation/v1: both are served.
    // A refusal is a test's choice, to exercise the client's fallback.
    refusedVesselApiVersions: options.refusedVesselApiVersions ?? [],
  };
  const check = (name: string, value: number, min: number, exclusive: boolean) => {
    if (!Number.isFinite(value) || value < min || (exclusive && value === min)) {
      throw new RangeError(
        `simulator option ${name} must be a number ${exclusive ? '>' : '>='} ${min} (got ${value})`,
      );
    }
  };
  check('stepMs', settings.stepMs, 0, true);
  check('terminationMs', settings.terminationMs, 0, false);
  check('logLinesPerSecond', settings.logLinesPerSecond, 0, false);
  check('tokenTtlSeconds', settings.tokenTtlSeconds, 0, true);
  return settings;
}

/** Starts the simulator on 127.0.0.1 (port 0 = a free one) with demo data unless `data` is given. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const clock = options.clock ?? systemClock;
  const settings = resolveSettings(options);
  const random = options.random ?? seededRandom();
  const store = new SimStore(random);
  const logStreams = new LogStreams();
  const updaters: UpdaterMemory = new Map();
  const svc: SimServices = {
    store,
    clock,
    settings,
    auth: new AuthService(clock, random, settings.tokenTtlSeconds),
    logStreams,
    faults: new FaultSet(random),
    requests: new RequestLog(),
    held: new HeldRequests(),
    logger: options.logger ?? silentLogger,
    sync: () => {
      // Purge first so a Formation Vessel that finished terminating can be recreated in the same pass.
      const gone = store.purgeGone(clock.now(), settings);
      // Updaters first: what they change in a template is then rolled out by the other controllers.
      rememberImages(store, updaters);
      runImageUpdaters(store, updaters, clock.now());
      reconcileArmadaSets(store, clock.now());
      reconcile(store, clock.now(), settings);
      gone.push(...store.purgeGone(clock.now(), settings));
      for (const g of gone) logStreams.vesselGone(g.env, g.name);
    },
  };
  svc.auth.addAccount(demoAccount()); // always there, so GAMEFABRIC_TOKEN=demo-token works with any data file
  loadData(svc, options.data ?? (settings.realShapes ? realShapesData() : demoData()));
  rememberImages(store, updaters);
  reconcileArmadaSets(store, clock.now());
  reconcile(store, clock.now(), settings, { settle: true });
  if (options.faults) svc.faults.set(options.faults);

  // Tests emit lines for many Vessels at once (a firehose of a dozen tails, every step), and syncing
  // the whole world costs milliseconds each time: in one synchronous run of emits at one time of the
  // clock nothing else can change the world, so the first emit's sync serves the others.
  let syncedFor: number | undefined;
  const invalidate = () => {
    syncedFor = undefined;
  };
  const emit: EmitLines = (env, vessel, lines, container) => {
    if (syncedFor !== clock.now()) {
      svc.sync();
      syncedFor = clock.now();
      queueMicrotask(invalidate);
    }
    const rec = store.environment(env).vessels.get(vessel);
    if (!rec) throw notFound('Vessel', vessel, `environment "${env}"`);
    const name = container ?? rec.vessel.spec.template.spec.containers[0]?.name ?? '';
    const buffer = rec.logs.get(name);
    if (!buffer) throw badRequest(`container "${name}" is not valid for vessel "${vessel}"`);
    buffer.push(lines);
    logStreams.emit(env, vessel, name, lines);
  };

  const { server, url } = await listen(svc, emit, options.port ?? 0);
  return {
    url,
    token: DEMO_TOKEN,
    requests: svc.requests.entries,
    countRequests: (method, prefix) => svc.requests.count(method, prefix),
    whenRequests: (method, prefix, count = 1) => svc.requests.whenCount(method, prefix, count),
    clearRequests: () => svc.requests.clear(),
    setFaults: (rules) => svc.faults.set(rules),
    clearFaults: () => svc.faults.clear(),
    whenHeld: (ids) => svc.held.whenHeld(ids),
    setCrashingImage: (branch, internalName, reason) => {
      invalidate();
      setCrashing(store, branch, internalName, reason);
    },
    setSite: (name, site) => {
      invalidate();
      if (site) store.siteOverrides.set(name, site);
      else store.siteOverrides.delete(name);
    },
    deleteImage: (branch, internalName) => {
      invalidate();
      deleteImage(store, branch, internalName);
    },
    emitLogLines: emit,
    openLogStreams: () => logStreams.count,
    whenLogStreams: (count) => logStreams.whenCount(count),
    state: stateView(svc),
    addServiceAccount: (account) => {
      invalidate();
      svc.auth.addAccount(account);
    },
    stop: stopper(server, logStreams),
  };
}

function stateView(svc: SimServices): SimulatorStateView {
  const { store, clock, settings } = svc;
  return {
    getVessel(env, name) {
      svc.sync();
      const rec = store.environment(env).vessels.get(name);
      return rec ? vesselWithStatus(rec, clock.now(), settings, store) : undefined;
    },
    listVessels(env) {
      svc.sync();
      const vessels = [...store.environment(env).vessels.values()].map((r) =>
        vesselWithStatus(r, clock.now(), settings, store),
      );
      return sortedByName(vessels);
    },
    getFormation(env, name) {
      svc.sync();
      const environment = store.environment(env);
      const formation = environment.formations.get(name);
      return formation ? formationWithStatus(environment, formation, clock.now(), settings) : undefined;
    },
    getRegion(env, name) {
      const region = store.environment(env).regions.get(name);
      return region ? deepClone(region) : undefined;
    },
    listImages(branch) {
      return deepClone(sortedByName(store.branch(branch).values()));
    },
    getArmada(env, name) {
      svc.sync();
      const rec = store.environment(env).armadas.get(name);
      return rec
        ? armadaWithStatus(
            rec,
            clock.now(),
            settings,
            store,
            blockedSites(store, env, rec.armada),
            regionTypeOrder(store.environment(env), rec.armada),
          )
        : undefined;
    },
    getArmadaSet(env, name) {
      svc.sync();
      const environment = store.environment(env);
      const set = environment.armadaSets.get(name);
      return set ? armadaSetWithStatus(environment, set, clock.now(), settings, store) : undefined;
    },
  };
}

function stopper(server: Server, logStreams: LogStreams): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= new Promise<void>((resolve) => {
      logStreams.closeAll();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return stopping;
  };
}

/** Marks an image as crashing on start (or running again); the armada controller reads it at the next sync. */
function setCrashing(
  store: SimStore,
  branch: string,
  internalName: string,
  reason: string | undefined,
): void {
  const key = `${branch}/${internalName}`;
  if (reason) store.crashingImages.set(key, reason);
  else store.crashingImages.delete(key);
}

/** Removes an image from its branch, refused while any template in any environment runs it. */
function deleteImage(store: SimStore, branch: string, internalName: string): void {
  const images = store.branch(branch);
  if (!images.has(internalName)) throw new Error(`branch ${branch} has no image ${internalName}`);
  const runs = (containers: readonly { branch?: string; image?: string }[] | undefined) =>
    (containers ?? []).some((c) => c.branch === branch && c.image === internalName);
  for (const env of store.environments.values()) {
    const users = [
      ...[...env.armadas.values()].map((r) => r.armada.spec.template.spec.containers),
      ...[...env.armadaSets.values()].map((s) => s.spec.template.spec.containers),
      ...[...env.formations.values()].map((f) => f.spec.template?.spec.containers),
      ...[...env.vessels.values()].map((r) => r.vessel.spec.template.spec.containers),
    ];
    if (users.some(runs))
      throw new Error(`image ${internalName} of branch ${branch} is in use in ${env.name}`);
  }
  images.delete(internalName);
}
