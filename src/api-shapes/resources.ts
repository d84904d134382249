/**
 * Typed GameFabric resources, shared by the API client and the simulator.
 *
 * Every object schema is `looseObject`: fields we do not model are kept on
 * parse, so a read-modify-write never erases what the service added
 * (health checks, volumes, secrets, ...). Schemas describe what we accept when
 * reading; they are lenient where the service may omit things and strict only
 * where the seed makes a field mandatory.
 */
import { z } from 'zod';

/** apiVersion values per the seed's versioning table. */
export const API_VERSIONS = {
  container: 'container/v1',
  /** What the seed says the Vessel create payload carries (the path says v1). */
  vesselCreate: 'formation/v1beta1',
  formation: 'formation/v1',
  core: 'core/v1',
} as const;

/** Both Vessel/Formation apiVersions seen in the wild; accepted when reading. */
export const FORMATION_API_VERSIONS = ['formation/v1beta1', 'formation/v1'] as const;

const VESSEL_STATES = [
  'Pending',
  'Scheduled',
  'Created',
  'Starting',
  'Running',
  'Terminating',
  'Error',
  'Suspended',
] as const;
export type VesselState = (typeof VESSEL_STATES)[number];

/** States that mean "scheduled successfully" (left Pending for Scheduled or later). */
export const SCHEDULED_STATES: readonly VesselState[] = ['Scheduled', 'Created', 'Starting', 'Running'];

export const PORT_POLICIES = ['Passthrough', 'Dynamic'] as const;
export const PORT_PROTOCOLS = ['UDP', 'TCP'] as const;
export const SCHEDULING_STRATEGIES = ['Packed', 'Distributed'] as const;
export type SchedulingStrategy = (typeof SCHEDULING_STRATEGIES)[number];

const OwnerReferenceSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string(),
  name: z.string(),
  uid: z.string().optional(),
  controller: z.boolean().optional(),
});

const ObjectMetaSchema = z.looseObject({
  name: z.string(),
  environment: z.string().optional(),
  branch: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  uid: z.string().optional(),
  revision: z.string().optional(),
  /** RFC 3339, set by the service; several Images may share one image:tag, the newest counts. */
  createdTimestamp: z.string().optional(),
  ownerReferences: z.array(OwnerReferenceSchema).optional(),
});

// ---- container group ---------------------------------------------------

export const ImageSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({
    image: z.string(),
    tag: z.string(),
    digest: z.string().optional(),
    registry: z.string().optional(),
  }),
});
export type Image = z.infer<typeof ImageSchema>;

/** A Branch: cluster-scoped; the platform's defaults display as "Production" and "Development". */
export const BranchSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({ displayName: z.string().optional() }).optional(),
});
export type Branch = z.infer<typeof BranchSchema>;

export const ImagePromotionSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.literal('ImagePromotion'),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({
    branch: z.string(),
    imageName: z.string(),
  }),
});
export type ImagePromotion = z.infer<typeof ImagePromotionSchema>;

// ---- formation group -----------------------------------------------------

/**
 * A port as read. Liberal on purpose: on the real service a Passthrough port
 * may carry no `containerPort` or `protocol`, and the provider knows more
 * policies (e.g. `Metric`) than the seed; one such port must not make a whole
 * list unreadable. Writes are checked strictly in changes/validate.ts.
 */
const PortSchema = z.looseObject({
  name: z.string(),
  policy: z.string().optional(),
  containerPort: z.number().int().optional(),
  protocol: z.string().optional(),
});

const ResourceListSchema = z.looseObject({
  cpu: z.string().optional(),
  memory: z.string().optional(),
});

const ContainerSchema = z.looseObject({
  name: z.string(),
  branch: z.string().optional(),
  image: z.string().optional(),
  command: z.array(z.string()).optional(),
  args: z.array(z.string()).optional(),
  env: z.array(z.looseObject({ name: z.string(), value: z.string().optional() })).optional(),
  ports: z.array(PortSchema).optional(),
  resources: z
    .looseObject({
      requests: ResourceListSchema.optional(),
      limits: ResourceListSchema.optional(),
    })
    .optional(),
});
export type Container = z.infer<typeof ContainerSchema>;

const VesselTemplateSchema = z.looseObject({
  metadata: z
    .looseObject({
      labels: z.record(z.string(), z.string()).optional(),
      annotations: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  spec: z.looseObject({
    containers: z.array(ContainerSchema),
  }),
});
export type VesselTemplate = z.infer<typeof VesselTemplateSchema>;

const VesselStatusSchema = z.looseObject({
  state: z.string().optional(),
  reason: z.string().optional(),
});

export const VesselSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({
    description: z.string().optional(),
    region: z.string(),
    suspend: z.boolean().optional(),
    template: VesselTemplateSchema,
  }),
  status: VesselStatusSchema.optional(),
});
export type Vessel = z.infer<typeof VesselSchema>;

/**
 * One entry of a Vessel's `override.containers`. The docs' example names the
 * container and sets an image; the provider's VesselContainerOverride
 * (nitrado/terraform-provider-ec, ec/formation/schema_formation.go) has
 * neither but carries args, command, env, configFiles and secrets, so name
 * and image are optional on read. The bot sends entries in template container order, so either reading
 * hits the intended container.
 */
const ContainerOverrideSchema = z.looseObject({
  name: z.string().optional(),
  image: z.string().optional(),
  command: z.array(z.string()).optional(),
  args: z.array(z.string()).optional(),
  env: z.array(z.looseObject({ name: z.string(), value: z.string().optional() })).optional(),
});
export type ContainerOverride = z.infer<typeof ContainerOverrideSchema>;

export const FormationVesselSchema = z.looseObject({
  name: z.string(),
  region: z.string(),
  description: z.string().optional(),
  suspend: z.boolean().optional(),
  override: z
    .looseObject({
      labels: z.record(z.string(), z.string()).optional(),
      containers: z.array(ContainerOverrideSchema).optional(),
    })
    .optional(),
});
export type FormationVessel = z.infer<typeof FormationVesselSchema>;

export const FormationSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({
    description: z.string().optional(),
    template: VesselTemplateSchema.optional(),
    vessels: z.array(FormationVesselSchema).default([]),
  }),
  status: z.looseObject({ state: z.string().optional(), reason: z.string().optional() }).optional(),
});
export type Formation = z.infer<typeof FormationSchema>;

// ---- core group -----------------------------------------------------------

const RegionTypeSchema = z.looseObject({
  name: z.string(),
  locations: z.array(z.string()).default([]),
  template: z
    .looseObject({
      env: z.array(z.looseObject({ name: z.string(), value: z.string().optional() })).optional(),
      // A string, not the enum: an empty value means the default, and a value
      // newer than this bot is shown as it is rather than failing the read.
      scheduling: z.string().optional(),
    })
    .optional(),
});
type RegionType = z.infer<typeof RegionTypeSchema>;

export const RegionSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: z.looseObject({
    displayName: z.string().optional(),
    description: z.string().optional(),
    types: z.array(RegionTypeSchema).default([]),
  }),
  status: z.looseObject({}).optional(),
});
export type Region = z.infer<typeof RegionSchema>;

// ---- envelopes --------------------------------------------------------------

/** A `{ items: [...] }` list of the given resource. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.looseObject({ items: z.array(item) });
}

/** Kubernetes-style error body. */
export const StatusSchema = z.looseObject({
  kind: z.literal('Status'),
  apiVersion: z.string().optional(),
  status: z.string().optional(),
  message: z.string().optional(),
  reason: z.string().optional(),
  code: z.number().optional(),
  details: z.unknown().optional(),
});
export type Status = z.infer<typeof StatusSchema>;

/** One RFC 6902 operation (the subset the bot sends, plus what the simulator accepts). */
export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/** Scheduling of a Region Type, with the seed's default when absent or empty; an unknown value as it is. */
export function schedulingOf(type: RegionType): string {
  return type.template?.scheduling || 'Packed';
}
