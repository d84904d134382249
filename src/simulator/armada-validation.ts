/**
 * Validation of Armada, ArmadaSet and ImageUpdater bodies: the envelope, the
 * region(s) existing in the environment, distribution entries naming a type of
 * their region and keeping the replica rules (replica-rules.ts), the template's
 * containers as for a Vessel, and the rolling-update strategy.
 */
import {
  ARMADA_API_VERSION,
  type Armada,
  type ArmadaSet,
  type ImageUpdater,
} from '../api-shapes/armada-resources.js';
import { replicaRuleProblems } from '../api-shapes/replica-rules.js';
import { API_VERSIONS } from '../api-shapes/resources.js';
import { checkContainers, type ImageLookup } from './containers.js';
import { deepClone, isRecord, type JsonObject } from './json.js';
import type { EnvironmentState } from './store.js';
import { checkEnvelope, optionalObject, optionalString, Problems, requiredString } from './validation.js';

/** A validated copy of an Armada body (no status); 422 naming every bad field. */
export function validateArmada(body: JsonObject, env: EnvironmentState, images: ImageLookup): Armada {
  const p = new Problems();
  const { name, spec } = checkEnvelope(p, body, {
    kind: 'Armada',
    apiVersions: [ARMADA_API_VERSION],
    environment: env.name,
  });
  optionalString(p, spec, 'description', 'spec.description');
  const region = requiredString(p, spec, 'region', 'spec.region');
  checkDistribution(p, 'spec.distribution', spec.distribution, env, region);
  checkTemplate(p, spec, images);
  p.throwIfAny('Armada', name);
  const armada = deepClone(body) as Armada;
  delete armada.status;
  armada.spec.distribution ??= [];
  return armada;
}

/** A validated copy of an ArmadaSet body (no status). */
export function validateArmadaSet(body: JsonObject, env: EnvironmentState, images: ImageLookup): ArmadaSet {
  const p = new Problems();
  const { name, spec } = checkEnvelope(p, body, {
    kind: 'ArmadaSet',
    apiVersions: [ARMADA_API_VERSION],
    environment: env.name,
  });
  const armadas = spec.armadas;
  if (!Array.isArray(armadas)) p.add('spec.armadas', 'Required value: a list of regions');
  else {
    const seen = new Set<string>();
    armadas.forEach((entry, i) => {
      const f = `spec.armadas[${i}]`;
      if (!isRecord(entry)) {
        p.add(f, 'Invalid value: must be an object');
        return;
      }
      const region = requiredString(p, entry, 'region', `${f}.region`);
      if (region !== undefined) {
        if (seen.has(region)) p.add(`${f}.region`, `Duplicate value: "${region}"`);
        seen.add(region);
      }
      checkDistribution(p, `${f}.distribution`, entry.distribution, env, region);
    });
  }
  checkTemplate(p, spec, images);
  p.throwIfAny('ArmadaSet', name);
  const set = deepClone(body) as ArmadaSet;
  delete set.status;
  return set;
}

/** A validated copy of an ImageUpdater body. */
export function validateImageUpdater(
  body: JsonObject,
  env: EnvironmentState,
  images: ImageLookup,
): ImageUpdater {
  const p = new Problems();
  const { name, spec } = checkEnvelope(p, body, {
    kind: 'ImageUpdater',
    apiVersions: [API_VERSIONS.container],
    environment: env.name,
  });
  const branch = requiredString(p, spec, 'branch', 'spec.branch');
  if (branch !== undefined && !images.hasBranch(branch))
    p.add('spec.branch', `Not found: branch "${branch}"`);
  requiredString(p, spec, 'imageName', 'spec.imageName');
  const target = optionalObject(p, spec, 'targetRef', 'spec.targetRef');
  if (!target) p.add('spec.targetRef', 'Required value');
  else {
    const kind = requiredString(p, target, 'kind', 'spec.targetRef.kind');
    if (kind !== undefined && !['Armada', 'ArmadaSet', 'Formation', 'Vessel'].includes(kind)) {
      p.add(
        'spec.targetRef.kind',
        `Unsupported value: "${kind}": supported values: Armada, ArmadaSet, Formation, Vessel`,
      );
    }
    requiredString(p, target, 'name', 'spec.targetRef.name');
  }
  p.throwIfAny('ImageUpdater', name);
  return deepClone(body) as ImageUpdater;
}

function checkTemplate(p: Problems, spec: JsonObject, images: ImageLookup): void {
  const template = optionalObject(p, spec, 'template', 'spec.template');
  if (!template) {
    p.add('spec.template', 'Required value');
    return;
  }
  const templateSpec = optionalObject(p, template, 'spec', 'spec.template.spec');
  // An image missing from its branch is accepted: the controller reports it (Degraded with the reason),
  // as a fleet whose new servers cannot pull their image would; branches must exist.
  const anyImage: ImageLookup = { hasBranch: (b) => images.hasBranch(b), hasImage: () => true };
  checkContainers(p, 'spec.template.spec.containers', templateSpec?.containers, anyImage);
  const strategy = templateSpec
    ? optionalObject(p, templateSpec, 'strategy', 'spec.template.spec.strategy')
    : undefined;
  const rolling = strategy
    ? optionalObject(p, strategy, 'rollingUpdate', 'spec.template.spec.strategy.rollingUpdate')
    : undefined;
  for (const key of ['maxSurge', 'maxUnavailable']) {
    const value = rolling?.[key];
    if (value === undefined) continue;
    if (
      !(typeof value === 'number' && Number.isInteger(value) && value >= 0) &&
      !(typeof value === 'string' && /^\d+%$/.test(value))
    ) {
      p.add(
        `spec.template.spec.strategy.rollingUpdate.${key}`,
        `Invalid value: ${JSON.stringify(value)}: must be a whole number or a percentage`,
      );
    }
  }
}

/** Each entry names a type of the region once and keeps the replica rules. */
function checkDistribution(
  p: Problems,
  field: string,
  value: unknown,
  env: EnvironmentState,
  region: string | undefined,
): void {
  const found = region === undefined ? undefined : env.regions.get(region);
  if (region !== undefined && !found) {
    p.add(
      field.replace(/distribution$/, 'region'),
      `Not found: Region "${region}" does not exist in environment "${env.name}"`,
    );
  }
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    p.add(field, 'Invalid value: must be an array');
    return;
  }
  const types = found?.spec.types.map((t) => t.name);
  const seen = new Set<string>();
  value.forEach((entry, i) => {
    const f = `${field}[${i}]`;
    if (!isRecord(entry)) {
      p.add(f, 'Invalid value: must be an object');
      return;
    }
    const name = requiredString(p, entry, 'name', `${f}.name`);
    if (name !== undefined) {
      if (seen.has(name)) p.add(`${f}.name`, `Duplicate value: "${name}"`);
      seen.add(name);
      if (types && !types.includes(name)) {
        p.add(
          `${f}.name`,
          `Not found: region type "${name}" in region "${region}" (types: ${types.join(', ')})`,
        );
      }
    }
    const values = {
      minReplicas: entry.minReplicas ?? 0,
      maxReplicas: entry.maxReplicas ?? 0,
      bufferSize: entry.bufferSize ?? 0,
    };
    if (Object.values(values).some((v) => typeof v !== 'number')) {
      p.add(f, 'Invalid value: minReplicas, maxReplicas and bufferSize must be numbers');
      return;
    }
    for (const problem of replicaRuleProblems(values as Record<keyof typeof values, number>)) {
      p.add(f, `Invalid value: ${problem.message}`);
    }
  });
}
