/**
 * The simulator's in-memory state: images and promotions per branch, and
 * Regions, Formations and Vessel records per environment. Unknown branches
 * and environments are 404s, as on the real service.
 */
import type { ArmadaSet, ImageUpdater, Location } from '../api-shapes/armada-resources.js';
import type { Formation, Image, ImagePromotion, Region, Vessel } from '../api-shapes/resources.js';
import type { ArmadaRecord } from './armada-lifecycle.js';
import type { ImageLookup } from './containers.js';
import { notFound } from './http-utils/status.js';
import { isGone, type LifecycleSettings, type VesselRecord } from './lifecycle.js';
import { bootLines, LogBuffer } from './log-lines.js';
import { randomUuid } from './random.js';
import type { SiteOverride } from './types.js';

export interface EnvironmentState {
  name: string;
  regions: Map<string, Region>;
  formations: Map<string, Formation>;
  vessels: Map<string, VesselRecord>;
  armadas: Map<string, ArmadaRecord>;
  armadaSets: Map<string, ArmadaSet>;
  imageUpdaters: Map<string, ImageUpdater>;
}

interface NewVesselOptions {
  createdByController: boolean;
  /** When set, the Vessel is in Error with this reason. */
  error?: string;
  /** Lifecycle origin (default now); earlier means it is further along. */
  startedAt?: number;
}

/** All simulated objects; handlers validate, then change state through here. */
export class SimStore implements ImageLookup {
  /** Images per branch, keyed by internal name. */
  readonly branches = new Map<string, Map<string, Image>>();
  /** ImagePromotions per target branch, keyed by metadata.name. */
  readonly promotions = new Map<string, Map<string, ImagePromotion>>();
  readonly environments = new Map<string, EnvironmentState>();
  /** Branch display names (the Branch object's spec.displayName). */
  readonly branchDisplayNames = new Map<string, string>();
  /** Environment display names (the Environment object's spec.displayName). */
  readonly environmentDisplayNames = new Map<string, string>();
  /** Images whose game servers crash on start (a simulated bad build), keyed `branch/internalName`: the reason. */
  readonly crashingImages = new Map<string, string>();
  /** Locations the data declares (cluster-scoped), by name; sites.ts implies the others a Region names. */
  readonly locations = new Map<string, Location>();
  /** Site states set by tests and demos (every Site is Connected otherwise), by Site name. */
  readonly siteOverrides = new Map<string, SiteOverride>();
  private revision = 0;

  constructor(private readonly random: () => number) {}

  /** Adds an (empty) branch if it does not exist yet. */
  addBranch(name: string): void {
    if (!this.branches.has(name)) {
      this.branches.set(name, new Map());
      this.promotions.set(name, new Map());
    }
  }

  /** Adds an (empty) environment if it does not exist yet. */
  addEnvironment(name: string): EnvironmentState {
    let env = this.environments.get(name);
    if (!env) {
      env = {
        name,
        regions: new Map(),
        formations: new Map(),
        vessels: new Map(),
        armadas: new Map(),
        armadaSets: new Map(),
        imageUpdaters: new Map(),
      };
      this.environments.set(name, env);
    }
    return env;
  }

  /** The images of a branch; 404 when the branch does not exist. */
  branch(name: string): Map<string, Image> {
    const images = this.branches.get(name);
    if (!images) throw notFound('branch', name);
    return images;
  }

  /** The promotions of a branch; 404 when the branch does not exist. */
  branchPromotions(name: string): Map<string, ImagePromotion> {
    this.branch(name);
    return this.promotions.get(name) as Map<string, ImagePromotion>;
  }

  /** An environment; 404 when it does not exist. */
  environment(name: string): EnvironmentState {
    const env = this.environments.get(name);
    if (!env) throw notFound('environment', name);
    return env;
  }

  hasBranch(branch: string): boolean {
    return this.branches.has(branch);
  }

  hasImage(branch: string, internalName: string): boolean {
    return this.branches.get(branch)?.has(internalName) ?? false;
  }

  crashReason(branch: string, internalName: string): string | undefined {
    return this.crashingImages.get(`${branch}/${internalName}`);
  }

  /** A new opaque resource revision (monotonic across all objects). */
  nextRevision(): string {
    this.revision += 1;
    return String(this.revision);
  }

  /** A new object uid. */
  newUid(): string {
    return randomUuid(this.random);
  }

  /** Stores a Vessel (metadata uid/revision set here) with boot lines in each container's log. */
  addVessel(env: EnvironmentState, vessel: Vessel, now: number, options: NewVesselOptions): VesselRecord {
    vessel.metadata.uid = this.newUid();
    vessel.metadata.revision = this.nextRevision();
    delete vessel.status;
    const logs = new Map<string, LogBuffer>();
    for (const container of vessel.spec.template.spec.containers) {
      const buffer = new LogBuffer();
      buffer.push(bootLines(container.name, container.image, now));
      logs.set(container.name, buffer);
    }
    const rec: VesselRecord = {
      vessel,
      startedAt: options.startedAt ?? now,
      createdByController: options.createdByController,
      logs,
      ...(options.error ? { error: options.error } : {}),
    };
    env.vessels.set(vessel.metadata.name, rec);
    return rec;
  }

  /** Removes Vessels whose termination finished; returns which ones went. */
  purgeGone(now: number, s: LifecycleSettings): Array<{ env: string; name: string }> {
    const gone: Array<{ env: string; name: string }> = [];
    for (const env of this.environments.values()) {
      for (const [name, rec] of env.vessels) {
        if (isGone(rec, now, s)) {
          env.vessels.delete(name);
          gone.push({ env: env.name, name });
        }
      }
    }
    return gone;
  }
}
