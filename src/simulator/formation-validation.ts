/**
 * Validation of a Formation (create and the result of a PATCH): its template
 * containers, and each listed Vessel with its overrides, whose container
 * names must exist in the template and whose images must exist in that
 * container's branch.
 */
import { FORMATION_API_VERSIONS, type Formation } from '../api-shapes/resources.js';
import { checkContainers, checkImageRef, type ImageLookup } from './containers.js';
import { deepClone, isRecord, type JsonObject } from './json.js';
import { dropOverrideImages, type OverrideSettings, SEED_OVERRIDES } from './overrides.js';
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

/** Template containers in order, with their branch when they have one. */
type TemplateContainers = { name: string; branch?: string }[];

/**
 * A validated copy of `body` ready to store (no status, `spec.vessels`
 * defaulted, override images dropped when the settings say so); 422 otherwise.
 */
export function validateFormation(
  body: JsonObject,
  environment: string,
  images: ImageLookup,
  overrides: OverrideSettings = SEED_OVERRIDES,
): Formation {
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
    for (const [i, entry] of vessels.entries()) {
      checkEntry(p, `spec.vessels[${i}]`, entry, { seen, containers, images, overrides });
    }
  }
  p.throwIfAny('Formation', name);

  const formation = deepClone(body) as Formation;
  delete formation.status;
  formation.spec.vessels ??= [];
  if (overrides.ignoreOverrideImages) dropOverrideImages(formation);
  return formation;
}

/** Validates template.spec.containers; returns their names and branches, in order (when they are usable). */
function templateContainers(p: Problems, template: JsonObject, images: ImageLookup): TemplateContainers {
  const metadata = optionalObject(p, template, 'metadata', 'spec.template.metadata');
  if (metadata) optionalStringMap(p, metadata, 'labels', 'spec.template.metadata.labels');
  const spec = optionalObject(p, template, 'spec', 'spec.template.spec');
  const list = spec?.containers;
  checkContainers(p, 'spec.template.spec.containers', list, images);
  const found: TemplateContainers = [];
  if (Array.isArray(list)) {
    for (const c of list) {
      if (!isRecord(c) || typeof c.name !== 'string') continue;
      found.push({ name: c.name, ...(typeof c.branch === 'string' ? { branch: c.branch } : {}) });
    }
  }
  return found;
}

interface EntryContext {
  seen: Set<string>;
  containers: TemplateContainers | undefined;
  images: ImageLookup;
  overrides: OverrideSettings;
}

function checkEntry(p: Problems, f: string, entry: unknown, ctx: EntryContext): void {
  const { seen } = ctx;
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
  const { containers, overrides } = ctx;
  const positional = overrides.overrideMatching === 'position';
  if (positional && containers && list.length > containers.length) {
    p.add(
      `${f}.override.containers`,
      `Too many: ${list.length} entries, but spec.template has ${containers.length} container(s); entries apply by position`,
    );
  }
  list.forEach((item, j) => {
    const g = `${f}.override.containers[${j}]`;
    if (!isRecord(item)) {
      p.add(g, 'Invalid value: must be an object');
      return;
    }
    const target = positional ? containers?.[j] : namedContainer(p, g, item, containers);
    if (positional) optionalString(p, item, 'name', `${g}.name`);
    const image = item.image;
    if (image !== undefined && typeof image !== 'string')
      p.add(`${g}.image`, 'Invalid value: must be a string');
    // An image the API drops is not looked at, as an unknown field would not be.
    if (typeof image === 'string' && target?.branch !== undefined && !overrides.ignoreOverrideImages)
      checkImageRef(p, `${g}.image`, ctx.images, target.branch, image);
    optionalStringArray(p, item, 'args', `${g}.args`);
  });
}

/** The template container an entry names (the seed's reading), with a problem when it names none. */
function namedContainer(
  p: Problems,
  g: string,
  item: JsonObject,
  containers: TemplateContainers | undefined,
): TemplateContainers[number] | undefined {
  const name = requiredString(p, item, 'name', `${g}.name`);
  if (name === undefined || !containers) return undefined;
  const found = containers.find((c) => c.name === name);
  if (!found) {
    p.add(
      `${g}.name`,
      `Not found: container "${name}" is not in spec.template (has: ${containers.map((c) => c.name).join(', ')})`,
    );
  }
  return found;
}
