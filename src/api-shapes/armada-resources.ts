/**
 * Armadas, ArmadaSets (armada group), ImageUpdaters (container group) and
 * Environments (core group), shared by the API client and the simulator like
 * resources.ts. Shapes follow the Terraform provider's models and the docs
 * (see docs/gamefabric-compatibility.md); the status counts are not public, so
 * they are read liberally (replicaCounts) and never required.
 */
import { z } from 'zod';
import { type Container, VesselSchema } from './resources.js';

export const ARMADA_API_VERSION = 'armada/v1';

/** The fields of one Vessel template, reused as an Armada template (containers as in a Vessel). */
const TemplateSchema = VesselSchema.shape.spec.shape.template;

const ObjectMetaSchema = VesselSchema.shape.metadata;

/** Counts may come as numbers or numeric strings; anything else reads as absent rather than failing the read. */
const LooseCount = z.unknown().transform((v): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return undefined;
});

/**
 * The dynamic buffer of a region type: its presence means it is on (the
 * provider's `dynamicBuffer` has no `enabled` field, internal/resource/armada/armada.go);
 * while on, the platform overrides the manual buffer size (docs
 * armada-replicas-and-buffer.md "Enabling dynamic buffer").
 */
const DynamicBufferSchema = z.looseObject({
  maxBufferUtilization: LooseCount.optional(),
  dynamicMaxBufferThreshold: LooseCount.optional(),
  dynamicMinBufferThreshold: LooseCount.optional(),
});

/** One region type's replica settings (`spec.distribution[]`). */
const DistributionSchema = z.looseObject({
  name: z.string(),
  minReplicas: LooseCount.optional(),
  maxReplicas: LooseCount.optional(),
  bufferSize: LooseCount.optional(),
  // null reads as off, like an absent object.
  dynamicBuffer: DynamicBufferSchema.nullish(),
});

export type Distribution = z.infer<typeof DistributionSchema>;

/** Whether a region type's buffer is dynamic (its `dynamicBuffer` is present). */
export function hasDynamicBuffer(d: Distribution): boolean {
  return d.dynamicBuffer !== undefined && d.dynamicBuffer !== null;
}

const StrategySchema = z.looseObject({
  type: z.string().optional(),
  rollingUpdate: z
    .looseObject({
      // Kubernetes IntOrString: "25%" or 1.
      maxSurge: z.union([z.number(), z.string()]).optional(),
      maxUnavailable: z.union([z.number(), z.string()]).optional(),
    })
    .optional(),
});

/** An Armada's template: a Vessel template plus strategy and grace period. */
const ArmadaTemplateSchema = TemplateSchema.extend({
  spec: TemplateSchema.shape.spec.extend({
    strategy: StrategySchema.optional(),
    terminationGracePeriodSeconds: z.number().optional(),
  }),
});

const AutoscalingSchema = z.looseObject({
  fixedInterval: z.looseObject({ seconds: z.number().optional() }).optional(),
  scaleToZero: z.looseObject({}).optional(),
});

/** Status as read: `state`/`reason` are documented, the counts are not (field names are ours, read liberally). */
const ArmadaStatusSchema = z.looseObject({
  state: z.string().optional(),
  reason: z.string().optional(),
});

export const ArmadaSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({
    region: z.string(),
    description: z.string().optional(),
    distribution: z.array(DistributionSchema).default([]),
    autoscaling: AutoscalingSchema.optional(),
    template: ArmadaTemplateSchema,
  }),
  status: ArmadaStatusSchema.optional(),
});
export type Armada = z.infer<typeof ArmadaSchema>;

/** One region of an ArmadaSet (`spec.armadas[]`). */
const ArmadaSetRegionSchema = z.looseObject({
  region: z.string(),
  distribution: z.array(DistributionSchema).default([]),
  autoscaling: z.looseObject({ scaleToZero: z.looseObject({}).optional() }).optional(),
});

export const ArmadaSetSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({
    description: z.string().optional(),
    armadas: z.array(ArmadaSetRegionSchema).default([]),
    override: z.array(z.looseObject({ region: z.string() })).optional(),
    autoscaling: AutoscalingSchema.optional(),
    template: ArmadaTemplateSchema,
  }),
  status: ArmadaStatusSchema.optional(),
});
export type ArmadaSet = z.infer<typeof ArmadaSetSchema>;

/** Rolls its target out when an image named `imageName` appears in `branch` (pushed or promoted). */
export const ImageUpdaterSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({
    branch: z.string(),
    /** The human-readable image name (`game-server`), not the internal one. */
    imageName: z.string(),
    targetRef: z.looseObject({
      apiVersion: z.string().optional(),
      // A string: a kind newer than this bot is shown as it is.
      kind: z.string(),
      name: z.string(),
    }),
  }),
  /**
   * No public source shows an ImageUpdater's status: `state`, `reason` and the
   * last update it applied (`lastUpdate{image, time}`) are read when present
   * (inferred names) and never required.
   */
  status: z
    .looseObject({
      state: z.string().optional(),
      reason: z.string().optional(),
      lastUpdate: z.looseObject({ image: z.string().optional(), time: z.string().optional() }).optional(),
    })
    .optional(),
});
export type ImageUpdater = z.infer<typeof ImageUpdaterSchema>;

/*
 * Sites (core group, cluster-scoped): the capacity clusters behind a
 * Location. The docs name the states (Connected, Pending, Terminating, Error)
 * and cordoning (`architecture/regions-sites-and-locations.md`); the spec's
 * keys are those of nitrado/terraform-provider-ec `ec/core/schema_site.go`
 * (cordoned, cpuRatio, credentials, description, resources, template): a Site
 * does not name its Location, the Location names its Sites. The status field
 * names are inferred, so they are read liberally and never required.
 */
export const SiteSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: z.looseObject({ name: z.string() }),
  spec: z
    .looseObject({
      /** "Cordoned determines if a site can have fleets scheduled" (ec `schema_site.go`). */
      cordoned: z.boolean().optional(),
      description: z.string().optional(),
    })
    .optional(),
  status: z.looseObject({ state: z.string().optional(), reason: z.string().optional() }).optional(),
});
export type Site = z.infer<typeof SiteSchema>;

/*
 * Locations (core group, cluster-scoped): "Sites are the site names that
 * makes up the location" (nitrado/terraform-provider-ec
 * `ec/core/schema_location.go`, `spec.sites`); a Region type lists Locations.
 * The list path `/api/core/v1/locations` is inferred from the core group's
 * convention (`/api/core/v1/sites`); the provider reads one with
 * `CoreV1().Locations().Get` (`ec/core/data_source_core_location.go`).
 */
export const LocationSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: z.looseObject({ name: z.string() }),
  spec: z.looseObject({ sites: z.array(z.string()).nullish() }).nullish(),
});
export type Location = z.infer<typeof LocationSchema>;

export const EnvironmentSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({ displayName: z.string().optional() }).optional(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

/** Replica counts as far as the status tells them; undefined where it does not. */
export interface ReplicaCounts {
  replicas?: number;
  readyReplicas?: number;
  allocatedReplicas?: number;
  updatedReplicas?: number;
}

// Names the console's counts may go by: ours first (the simulator's), then Agones' Fleet status names.
const COUNT_KEYS: Record<keyof ReplicaCounts, readonly string[]> = {
  replicas: ['replicas', 'currentReplicas', 'current'],
  readyReplicas: ['readyReplicas', 'ready'],
  allocatedReplicas: ['allocatedReplicas', 'allocated'],
  updatedReplicas: ['updatedReplicas', 'updated'],
};

function countIn(obj: Record<string, unknown>, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const value = LooseCount.parse(obj[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

function countsOf(obj: Record<string, unknown>): ReplicaCounts {
  const out: ReplicaCounts = {};
  for (const [field, keys] of Object.entries(COUNT_KEYS) as [keyof ReplicaCounts, readonly string[]][]) {
    const value = countIn(obj, keys);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The counts of a status as a whole and per region type. Per type they are
 * looked for in `status.regionTypes[]` or `status.distribution[]` (by `name`);
 * whatever is missing stays undefined and is shown as unknown.
 */
export function replicaCounts(status: unknown): { total: ReplicaCounts; byType: Map<string, ReplicaCounts> } {
  const byType = new Map<string, ReplicaCounts>();
  if (!isObject(status)) return { total: {}, byType };
  for (const key of ['regionTypes', 'distribution']) {
    const list = status[key];
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      if (isObject(entry) && typeof entry.name === 'string' && !byType.has(entry.name)) {
        byType.set(entry.name, countsOf(entry));
      }
    }
  }
  return { total: countsOf(status), byType };
}

/** The containers of an Armada or ArmadaSet template. */
export function templateContainers(resource: Armada | ArmadaSet): Container[] {
  return resource.spec.template.spec.containers;
}

/** The name of the ArmadaSet that owns an Armada, if any. */
export function armadaSetOwner(armada: Armada): string | undefined {
  return armada.metadata.ownerReferences?.find((o) => o.kind === 'ArmadaSet')?.name;
}
