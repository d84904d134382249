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
import { type JsonPatchOperation, listOf } from '../api-shapes/resources.js';
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

/** Raw JSON Patch (application/json-patch+json); not retried except on 429. */
export async function patchFleet<K extends FleetKind>(
  http: Requester,
  kind: K,
  env: string,
  name: string,
  ops: readonly JsonPatchOperation[],
): Promise<FleetOf<K>> {
  const fleet = await http.json(
    { method: 'PATCH', path: itemPath(kind, env, name), body: { patch: ops }, retry: 'refused-only' },
    SCHEMAS[kind],
    kind,
  );
  return fleet as FleetOf<K>;
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
 * Sets the replica settings of one region type and nothing else: `test` of
 * the whole entry as read (which must still equal `expected`, the values the
 * preview showed), then `add` of each changed field. ArmadaMovedError when
 * the entry no longer holds `expected`.
 */
export async function setDistribution(
  http: Requester,
  t: DistributionTarget,
  expected: ReplicaSettings,
  next: ReplicaSettings,
  opts: { maxAttempts?: number } = {},
): Promise<{ fleet: Armada | ArmadaSet; attempts: number }> {
  const { result, attempts } = await patchWithGuard({
    kind: t.kind,
    name: t.name,
    maxAttempts: opts.maxAttempts,
    prepare: async () => {
      const current = await getFleet(http, t.kind, t.env, t.name);
      const { entries, pointer } = distributionOf(current, t);
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
      const at = `${pointer}/${index}`;
      const ops: JsonPatchOperation[] = [{ op: 'test', path: at, value: entry }];
      for (const field of ['minReplicas', 'maxReplicas', 'bufferSize'] as const) {
        const value = next[field];
        if (value !== undefined) ops.push({ op: 'add', path: `${at}/${field}`, value });
      }
      return {
        guard: JSON.stringify(entry),
        apply: () => patchFleet(http, t.kind, t.env, t.name, ops),
      };
    },
  });
  return { fleet: result, attempts };
}

/** Which container's image: of the template of an Armada or ArmadaSet. */
export interface ImageTarget {
  kind: FleetKind;
  env: string;
  name: string;
  container: string;
}

/**
 * Sets one template container's (internal) image name: `test` of the
 * container's name and of the image the preview showed, then `replace`.
 * ArmadaMovedError when it runs another image now.
 */
export async function setTemplateImage(
  http: Requester,
  t: ImageTarget,
  expectedImage: string | undefined,
  image: string,
  opts: { maxAttempts?: number } = {},
): Promise<{ fleet: Armada | ArmadaSet; attempts: number }> {
  const { result, attempts } = await patchWithGuard({
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
      const at = `/spec/template/spec/containers/${index}`;
      const ops: JsonPatchOperation[] = [
        { op: 'test', path: `${at}/name`, value: t.container },
        ...(expectedImage === undefined
          ? []
          : [{ op: 'test' as const, path: `${at}/image`, value: expectedImage }]),
        { op: 'add', path: `${at}/image`, value: image },
      ];
      return {
        guard: `${index}:${container.image ?? ''}`,
        apply: () => patchFleet(http, t.kind, t.env, t.name, ops),
      };
    },
  });
  return { fleet: result, attempts };
}
