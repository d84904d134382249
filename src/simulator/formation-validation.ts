/**
 * Validation of a Formation (create and the result of a PATCH): its template
 * containers, and each listed Vessel with its overrides, whose container
 * names must exist in the template and whose images must exist in that
 * container's branch.
 */
import { FORMATION_API_VERSIONS, type Formation } from '../gamefabric/resources.js';
import { checkContainers, checkImageRef, type ImageLookup } from './containers.js';
import { deepClone, isRecord, type JsonObject } from './json.js';
import {
  checkEnvelope,
  checkName,
  optionalObject,
  optionalString,
  optionalStringArray,
  optionalStringMap,
  Problems,
  requiredString,
} from './validation.js';

/** A validated copy of `body` ready to store (no status, `spec.vessels` defaulted); 422 otherwise. */
export function validateFormation(body: JsonObject, environment: string, images: ImageLookup): Formation {
  const p = new Problems();
  const { name, spec } = checkEnvelope(p, body, {
    kind: 'Formation',
    apiVersions: FORMATION_API_VERSIONS,
    environment,
  });
  optionalString(p, spec, 'description', 'spec.description');
  const template = optionalObject(p, spec, 'template', 'spec.template');
  const containers = template ? templateContainers(p, template, images) : undefined;

  const vessels = spec.vessels;
  if (vessels !== undefined && !Array.isArray(vessels))
    p.add('spec.vessels', 'Invalid value: must be an array');
  if (Array.isArray(vessels)) {
    if (vessels.length > 0 && !template) {
      p.add('spec.template', 'Required value: a Formation that lists Vessels needs a template');
    }
    const seen = new Set<string>();
    vessels.forEach((entry, i) => checkEntry(p, `spec.vessels[${i}]`, entry, seen, containers, images));
  }
  p.throwIfAny('Formation', name);

  const formation = deepClone(body) as Formation;
  delete formation.status;
  formation.spec.vessels ??= [];
  return formation;
}

/** Validates template.spec.containers; returns their branches by name (when they are usable). */
function templateContainers(p: Problems, template: JsonObject, images: ImageLookup): Map<string, string> {
  const metadata = optionalObject(p, template, 'metadata', 'spec.template.metadata');
  if (metadata) optionalStringMap(p, metadata, 'labels', 'spec.template.metadata.labels');
  const spec = optionalObject(p, template, 'spec', 'spec.template.spec');
  const list = spec?.containers;
  checkContainers(p, 'spec.template.spec.containers', list, images);
  const branches = new Map<string, string>();
  if (Array.isArray(list)) {
    for (const c of list) {
      if (isRecord(c) && typeof c.name === 'string' && typeof c.branch === 'string')
        branches.set(c.name, c.branch);
    }
  }
  return branches;
}

function checkEntry(
  p: Problems,
  f: string,
  entry: unknown,
  seen: Set<string>,
  containers: Map<string, string> | undefined,
  images: ImageLookup,
): void {
  if (!isRecord(entry)) {
    p.add(f, 'Invalid value: must be an object');
    return;
  }
  const name = requiredString(p, entry, 'name', `${f}.name`);
  if (name !== undefined) {
    checkName(p, `${f}.name`, name);
    if (seen.has(name)) p.add(`${f}.name`, `Duplicate value: "${name}"`);
    seen.add(name);
  }
  requiredString(p, entry, 'region', `${f}.region`);
  optionalString(p, entry, 'description', `${f}.description`);
  if (entry.suspend !== undefined && typeof entry.suspend !== 'boolean') {
    p.add(`${f}.suspend`, 'Invalid value: must be a boolean');
  }
  const override = optionalObject(p, entry, 'override', `${f}.override`);
  if (!override) return;
  optionalStringMap(p, override, 'labels', `${f}.override.labels`);
  const list = override.containers;
  if (list === undefined) return;
  if (!Array.isArray(list)) {
    p.add(`${f}.override.containers`, 'Invalid value: must be an array');
    return;
  }
  list.forEach((item, j) => {
    const g = `${f}.override.containers[${j}]`;
    if (!isRecord(item)) {
      p.add(g, 'Invalid value: must be an object');
      return;
    }
    const container = requiredString(p, item, 'name', `${g}.name`);
    const branch = container !== undefined ? containers?.get(container) : undefined;
    if (container !== undefined && containers && !containers.has(container)) {
      p.add(
        `${g}.name`,
        `Not found: container "${container}" is not in spec.template (has: ${[...containers.keys()].join(', ')})`,
      );
    }
    const image = item.image;
    if (image !== undefined && typeof image !== 'string')
      p.add(`${g}.image`, 'Invalid value: must be a string');
    if (typeof image === 'string' && branch !== undefined)
      checkImageRef(p, `${g}.image`, images, branch, image);
    optionalStringArray(p, item, 'args', `${g}.args`);
  });
}
