/**
 * Validation of a Vessel create payload (seed endpoint 3): kind and
 * apiVersion, names, the path's environment, the region existing there, and
 * containers whose images exist in their branches.
 */
import { FORMATION_API_VERSIONS, type Vessel } from '../api-shapes/resources.js';
import { checkContainers, type ImageLookup } from './containers.js';
import { deepClone, isRecord, type JsonObject } from './json.js';
import type { EnvironmentState } from './store.js';
import { checkEnvelope, optionalObject, optionalString, Problems, requiredString } from './validation.js';

/** A validated copy of `body` ready to store (no status); 422 naming every bad field. */
export function validateVessel(body: JsonObject, env: EnvironmentState, images: ImageLookup): Vessel {
  const p = new Problems();
  const { name, metadata, spec } = checkEnvelope(p, body, {
    kind: 'Vessel',
    apiVersions: FORMATION_API_VERSIONS,
    environment: env.name,
  });
  if (metadata.ownerReferences !== undefined) checkOwnerReferences(p, metadata.ownerReferences);
  optionalString(p, spec, 'description', 'spec.description');
  const region = requiredString(p, spec, 'region', 'spec.region');
  if (region !== undefined && !env.regions.has(region)) {
    p.add('spec.region', `Not found: Region "${region}" does not exist in environment "${env.name}"`);
  }
  const template = optionalObject(p, spec, 'template', 'spec.template');
  const templateSpec = template ? optionalObject(p, template, 'spec', 'spec.template.spec') : undefined;
  checkContainers(p, 'spec.template.spec.containers', templateSpec?.containers, images);
  if (spec.suspend !== undefined && typeof spec.suspend !== 'boolean') {
    p.add('spec.suspend', 'Invalid value: must be a boolean');
  }
  p.throwIfAny('Vessel', name);

  const vessel = deepClone(body) as Vessel;
  delete vessel.status;
  return vessel;
}

function checkOwnerReferences(p: Problems, value: unknown): void {
  if (!Array.isArray(value)) {
    p.add('metadata.ownerReferences', 'Invalid value: must be an array');
    return;
  }
  value.forEach((ref, i) => {
    const f = `metadata.ownerReferences[${i}]`;
    if (!isRecord(ref)) p.add(f, 'Invalid value: must be an object');
    else {
      requiredString(p, ref, 'kind', `${f}.kind`);
      requiredString(p, ref, 'name', `${f}.name`);
    }
  });
}
