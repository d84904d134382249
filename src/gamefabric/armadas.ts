/**
 * Armadas and ArmadaSets (armada group, environment-scoped): list, get, raw
 * JSON Patch, and two guarded writes that touch one thing only: one
 * distribution entry (replicas of one region type) and one container's image.
 * Each write pins what the preview showed with a JSON Patch `test`, so a
 * concurrent change is never overwritten (guarded-patch.ts).
 */

import {
  type Armada,
  ArmadaSchema,
  type ArmadaSet,
  ArmadaSetSchema,
  type Distribution,
} from '../api-shapes/armada-resources.js';
import { listOf } from '../api-shapes/resources.js';
import {
  ArmadaMovedError,
  ContainerNotInTemplateError,
  RegionNotInArmadaSetError,
  RegionTypeNotInDistributionError,
} from './armada-errors.js';
import { patchWithGuard } from './guarded-patch.js';
import { apiPath, type Requester } from './request.js';

export type FleetKind = 'Armada' | 'ArmadaSet';

const SCHEMAS = { Armada: ArmadaSchema, ArmadaSet: ArmadaSetSchema } as const;
type FleetOf<K extends FleetKind> = K extends 'Armada' ? Armada : ArmadaSet;

const plural = (kind: FleetKind) => (kind === 'Armada' ? 'armadas' : 'armadasets');
const listPath = (kind: FleetKind, env: string) =>
  `${apiPath`/api/armada/v1/environments/${env}`}/${plural(kind)}`;
const itemPath = (kind: FleetKind, env: string, name: string) => `${listPath(kind, env)}${apiPath`/${name}`}`;

/** Every Armada or ArmadaSet in the environment. */
export async function listFleets<K extends FleetKind>(
  http: Requester,
  kind: K,
  env: string,
): Promise<FleetOf<K>[]> {
  const list = await http.json(
    { method: 'GET', path: listPath(kind, env), retry: 'idempotent' },
    listOf(SCHEMAS[kind]),
    `${kind} list`,
  );
  return list.items as FleetOf<K>[];
}

/** One Armada or ArmadaSet by name; ApiError 404 when there is none. */
export async function getFleet<K extends FleetKind>(
  http: Requester,
  kind: K,
  env: string,
  name: string,
): Promise<FleetOf<K>> {
  const fleet = await http.json(
    { method: 'GET', path: itemPath(kind, env, name), retry: 'idempotent' },
    SCHEMAS[kind],
    kind,
  );
  return fleet as FleetOf<K>;
}

/**
 * Merge patch (RFC 7386) of an Armada or ArmadaSet, as the provider writes
 * them (internal/resource/armada/armada.go, armadaset.go). The object's
 * `metadata.revision`, when it has one, rides along as the precondition: the
 * service refuses the patch with a 409 Conflict when the object moved since
 * it was read (Kubernetes' optimistic concurrency; inferred for GameFabric).
 */
export async function patchFleet<K extends FleetKind>(
  http: Requester,
  kind: K,
  env: string,
  name: string,
  revision: string | undefined,
  spec: Record<string, unknown>,
): Promise<FleetOf<K>> {
  const mergePatch = { ...(revision !== undefined ? { metadata: { revision } } : {}), spec };
  const fleet = await http.json(
    { method: 'PATCH', path: itemPath(kind, env, name), body: { mergePatch }, retry: 'refused-only' },
    SCHEMAS[kind],
    kind,
  );
  return fleet as FleetOf<K>;
}

/**
 * A guarded fleet write's outcome: the fleet as the API answered, the patches
 * sent, and how many of the resends were only for a moved revision (a status
 * written between our read and our patch), which is no concurrent change.
 */
export interface GuardedFleetWrite {
  fleet: Armada | ArmadaSet;
  attempts: number;
  revisionOnlyRetries: number;
}

/** The fields of `v` that are set. */
function definedOnly(v: ReplicaSettings): ReplicaSettings {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
}

/** Replica settings of one region type; a field left out keeps its value. */
export interface ReplicaSettings {
  minReplicas?: number;
  maxReplicas?: number;
  bufferSize?: number;
}

/** Which distribution entry: the Armada's own, or that of one region of an ArmadaSet. */
export interface DistributionTarget {
  kind: FleetKind;
  env: string;
  name: string;
  /** ArmadaSets only: the region whose distribution is meant. */
  region?: string;
  type: string;
}

/** The distribution list a target points at, with its JSON Pointer. */
function distributionOf(
  fleet: Armada | ArmadaSet,
  t: DistributionTarget,
): { entries: Distribution[]; pointer: string } {
  if (t.kind === 'Armada')
    return { entries: (fleet as Armada).spec.distribution, pointer: '/spec/distribution' };
  const regions = (fleet as ArmadaSet).spec.armadas;
  const index = regions.findIndex((r) => r.region === t.region);
  if (index === -1) {
    throw new RegionNotInArmadaSetError(
      t.name,
      t.region ?? '',
      regions.map((r) => r.region),
    );
  }
  return { entries: regions[index]?.distribution ?? [], pointer: `/spec/armadas/${index}/distribution` };
}

/** The distribution entry of `t` as the object holds it; the errors name what exists instead. */
export function findDistribution(fleet: Armada | ArmadaSet, t: DistributionTarget): Distribution {
  const { entries } = distributionOf(fleet, t);
  const entry = entries.find((e) => e.name === t.type);
  if (!entry) {
    throw new RegionTypeNotInDistributionError(
      t.region ? `${t.name}/${t.region}` : t.name,
      t.type,
      entries.map((e) => e.name),
    );
  }
  return entry;
}

const settingsText = (e: ReplicaSettings) =>
  `min ${e.minReplicas ?? 0}, buffer ${e.bufferSize ?? 0}, max ${e.maxReplicas ?? 0}`;

const sameSettings = (a: ReplicaSettings, b: ReplicaSettings) =>
  (a.minReplicas ?? 0) === (b.minReplicas ?? 0) &&
  (a.maxReplicas ?? 0) === (b.maxReplicas ?? 0) &&
  (a.bufferSize ?? 0) === (b.bufferSize ?? 0);

/**
 * Sets the replica settings of one region type: the entry must still hold
 * `expected` (the values the preview showed), else ArmadaMovedError. A merge
 * patch replaces a list whole, so the distribution (an ArmadaSet's regions)
 * is sent as read with only that entry changed, guarded by the revision read.
 */
export async function setDistribution(
  http: Requester,
  t: DistributionTarget,
  expected: ReplicaSettings,
  next: ReplicaSettings,
  opts: { maxAttempts?: number } = {},
): Promise<GuardedFleetWrite> {
  const { result, attempts, revisionOnlyRetries } = await patchWithGuard({
    kind: t.kind,
    name: t.name,
    maxAttempts: opts.maxAttempts,
    prepare: async () => {
      const current = await getFleet(http, t.kind, t.env, t.name);
      const { entries } = distributionOf(current, t);
      const index = entries.findIndex((e) => e.name === t.type);
      const entry = findDistribution(current, t);
      if (!sameSettings(entry, expected)) {
        throw new ArmadaMovedError(
          t.region ? `${t.name}/${t.region}` : t.name,
          `distribution of ${t.type}`,
          settingsText(expected),
          settingsText(entry),
        );
      }
      const changed = entries.map((e, i) => (i === index ? { ...e, ...definedOnly(next) } : e));
      const spec =
        t.kind === 'Armada'
          ? { distribution: changed }
          : {
              armadas: (current as ArmadaSet).spec.armadas.map((r) =>
                r.region === t.region ? { ...r, distribution: changed } : r,
              ),
            };
      const revision = current.metadata.revision;
      return {
        // The lists sent whole, as read: another writer's change to any of them is a concurrent change.
        guard: JSON.stringify(t.kind === 'Armada' ? entries : (current as ArmadaSet).spec.armadas),
        revision,
        apply: () => patchFleet(http, t.kind, t.env, t.name, revision, spec),
      };
    },
  });
  return { fleet: result, attempts, revisionOnlyRetries };
}

/** Which container's image: of the template of an Armada or ArmadaSet. */
export interface ImageTarget {
  kind: FleetKind;
  env: string;
  name: string;
  container: string;
}

/**
 * Sets one template container's (internal) image name: the container must
 * still run the image the preview showed, else ArmadaMovedError. The
 * containers are sent whole (a merge patch replaces lists), guarded by the
 * revision read.
 */
export async function setTemplateImage(
  http: Requester,
  t: ImageTarget,
  expectedImage: string | undefined,
  image: string,
  opts: { maxAttempts?: number } = {},
): Promise<GuardedFleetWrite> {
  const { result, attempts, revisionOnlyRetries } = await patchWithGuard({
    kind: t.kind,
    name: t.name,
    maxAttempts: opts.maxAttempts,
    prepare: async () => {
      const current = await getFleet(http, t.kind, t.env, t.name);
      const containers = current.spec.template.spec.containers;
      const index = containers.findIndex((c) => c.name === t.container);
      const container = containers[index];
      if (!container) {
        throw new ContainerNotInTemplateError(
          t.name,
          t.container,
          containers.map((c) => c.name),
        );
      }
      if (container.image !== expectedImage) {
        throw new ArmadaMovedError(
          t.name,
          `image of ${t.container}`,
          expectedImage ?? 'none',
          container.image ?? 'none',
        );
      }
      const containersNext = containers.map((c, i) => (i === index ? { ...c, image } : c));
      const revision = current.metadata.revision;
      return {
        // The containers are sent whole, as read: another writer's change to any of them is a concurrent change.
        guard: JSON.stringify(containers),
        revision,
        apply: () =>
          patchFleet(http, t.kind, t.env, t.name, revision, {
            template: { spec: { containers: containersNext } },
          }),
      };
    },
  });
  return { fleet: result, attempts, revisionOnlyRetries };
}
