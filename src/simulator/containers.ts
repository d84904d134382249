/**
 * Validation of container lists, shared by Vessel create and Formation
 * templates: names, the image existing (by internal name) in the container's
 * branch, port enums and resource quantities.
 */
import { PORT_POLICIES, PORT_PROTOCOLS } from '../api-shapes/resources.js';
import { isRecord } from './json.js';
import {
  checkName,
  optionalObject,
  optionalStringArray,
  type Problems,
  quoteList,
  requiredString,
} from './validation.js';

/** What validation needs to know about branches and images. */
export interface ImageLookup {
  hasBranch(branch: string): boolean;
  hasImage(branch: string, internalName: string): boolean;
  /** Why servers of this image crash on start (a simulated bad build), or undefined when they run. */
  crashReason?(branch: string, internalName: string): string | undefined;
}

// Kubernetes quantity: a decimal number with an optional SI or binary suffix (250m, 0.5, 512Mi, 1Gi).
const QUANTITY = /^(\d+(\.\d+)?|\.\d+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;

/** Records a problem when `image` is not an internal image name in `branch`. */
export function checkImageRef(
  p: Problems,
  field: string,
  images: ImageLookup,
  branch: string,
  image: string,
): void {
  if (!images.hasBranch(branch)) return; // reported on the branch field
  if (!images.hasImage(branch, image)) {
    p.add(
      field,
      `Not found: image "${image}" in branch "${branch}" (use the internal name, metadata.name, from the image list)`,
    );
  }
}

/** Validates `value` as a non-empty container array at `field`. */
export function checkContainers(p: Problems, field: string, value: unknown, images: ImageLookup): void {
  if (!Array.isArray(value) || value.length === 0) {
    p.add(field, 'Required value: at least one container');
    return;
  }
  const seen = new Set<string>();
  value.forEach((item, i) => {
    const f = `${field}[${i}]`;
    if (!isRecord(item)) {
      p.add(f, 'Invalid value: must be an object');
      return;
    }
    const name = requiredString(p, item, 'name', `${f}.name`);
    if (name !== undefined) {
      checkName(p, `${f}.name`, name);
      if (seen.has(name)) p.add(`${f}.name`, `Duplicate value: "${name}"`);
      seen.add(name);
    }
    const branch = requiredString(p, item, 'branch', `${f}.branch`);
    if (branch !== undefined && !images.hasBranch(branch))
      p.add(`${f}.branch`, `Not found: branch "${branch}"`);
    const image = requiredString(p, item, 'image', `${f}.image`);
    if (branch !== undefined && image !== undefined) checkImageRef(p, `${f}.image`, images, branch, image);
    optionalStringArray(p, item, 'args', `${f}.args`);
    optionalStringArray(p, item, 'command', `${f}.command`);
    checkPorts(p, `${f}.ports`, item.ports);
    checkResources(p, `${f}.resources`, item);
  });
}

function checkPorts(p: Problems, field: string, value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    p.add(field, 'Invalid value: must be an array');
    return;
  }
  value.forEach((port, i) => {
    const f = `${field}[${i}]`;
    if (!isRecord(port)) {
      p.add(f, 'Invalid value: must be an object');
      return;
    }
    requiredString(p, port, 'name', `${f}.name`);
    checkEnum(p, `${f}.policy`, port.policy, PORT_POLICIES);
    // A Passthrough port may leave containerPort and protocol out (the provider
    // marks both optional); the seed's example always gives them.
    const passthrough = port.policy === 'Passthrough';
    if (!(passthrough && port.protocol === undefined))
      checkEnum(p, `${f}.protocol`, port.protocol, PORT_PROTOCOLS);
    const n = port.containerPort;
    if (n === undefined) {
      if (!passthrough) p.add(`${f}.containerPort`, 'Required value');
    } else if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 65535) {
      p.add(`${f}.containerPort`, `Invalid value: ${JSON.stringify(n)}: must be an integer from 1 to 65535`);
    }
  });
}

/** Records a problem unless `value` is one of `allowed`. */
export function checkEnum(p: Problems, field: string, value: unknown, allowed: readonly string[]): void {
  if (value === undefined) p.add(field, `Required value: supported values: ${quoteList(allowed)}`);
  else if (typeof value !== 'string' || !allowed.includes(value)) {
    p.add(field, `Unsupported value: ${JSON.stringify(value)}: supported values: ${quoteList(allowed)}`);
  }
}

function checkResources(p: Problems, field: string, container: Record<string, unknown>): void {
  const resources = optionalObject(p, container, 'resources', field);
  if (!resources) return;
  for (const group of ['requests', 'limits']) {
    const list = optionalObject(p, resources, group, `${field}.${group}`);
    if (!list) continue;
    for (const [key, example] of [
      ['cpu', '250m'],
      ['memory', '512Mi'],
    ] as const) {
      const value = list[key];
      if (value === undefined) continue;
      if (typeof value !== 'string' || !QUANTITY.test(value)) {
        p.add(
          `${field}.${group}.${key}`,
          `Invalid value: ${JSON.stringify(value)}: must be a quantity like ${example}`,
        );
      }
    }
  }
}
