/**
 * Field-by-field validation of untyped create/patch bodies. Problems are
 * collected (not thrown one at a time) so a 422 names every bad field at
 * once, in Kubernetes' `field: message` style.
 */
import { MAX_NAME_LENGTH, nameProblem } from '../api-shapes/names.js';
import { badRequest, invalid, type StatusCause } from './http-utils/status.js';
import { isRecord, type JsonObject } from './json.js';

/** Collects field problems and throws one 422 for all of them. */
export class Problems {
  readonly causes: StatusCause[] = [];

  add(field: string, message: string): void {
    this.causes.push({ field, message });
  }

  /** Throws a 422 Invalid for `kind "name"` when any problem was found. */
  throwIfAny(kind: string, name: string | undefined): void {
    if (this.causes.length > 0) throw invalid(kind, name, this.causes);
  }
}

/** `"a", "b"` for messages listing allowed values. */
export function quoteList(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}

/** A required non-empty string field; records a problem and returns undefined otherwise. */
export function requiredString(p: Problems, obj: JsonObject, key: string, field: string): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null || value === '') {
    p.add(field, 'Required value');
    return undefined;
  }
  if (typeof value !== 'string') {
    p.add(field, `Invalid value: must be a string (got ${typeof value})`);
    return undefined;
  }
  return value;
}

/** An optional string field. */
export function optionalString(p: Problems, obj: JsonObject, key: string, field: string): void {
  const value = obj[key];
  if (value !== undefined && typeof value !== 'string') {
    p.add(field, `Invalid value: must be a string (got ${typeof value})`);
  }
}

/** An optional array of strings. */
export function optionalStringArray(p: Problems, obj: JsonObject, key: string, field: string): void {
  const value = obj[key];
  if (value === undefined) return;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    p.add(field, 'Invalid value: must be an array of strings');
  }
}

/** An optional map of string to string (labels, annotations). */
export function optionalStringMap(p: Problems, obj: JsonObject, key: string, field: string): void {
  const value = obj[key];
  if (value === undefined) return;
  if (!isRecord(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    p.add(field, 'Invalid value: must be a map of string to string');
  }
}

/** An optional nested object; returns it (or undefined), recording a problem for a non-object. */
export function optionalObject(
  p: Problems,
  obj: JsonObject,
  key: string,
  field: string,
): JsonObject | undefined {
  const value = obj[key];
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    p.add(field, 'Invalid value: must be an object');
    return undefined;
  }
  return value;
}

/** A DNS-1123 object name; records which rule it broke. */
export function checkName(p: Problems, field: string, name: string, maxLength = MAX_NAME_LENGTH): void {
  const problem = nameProblem(name, maxLength);
  if (problem) p.add(field, `Invalid value: "${name}": ${problem}`);
}

interface EnvelopeExpectation {
  kind: string;
  apiVersions: readonly string[];
  /** The environment from the path, for environment-scoped kinds. */
  environment?: string;
  maxNameLength?: number;
}

interface Envelope {
  name: string | undefined;
  metadata: JsonObject;
  spec: JsonObject;
}

/** Checks kind, apiVersion, metadata.name (and environment) and that spec is an object. */
export function checkEnvelope(p: Problems, body: JsonObject, expect: EnvelopeExpectation): Envelope {
  if (body.kind === undefined) p.add('kind', `Required value: must be "${expect.kind}"`);
  else if (body.kind !== expect.kind)
    p.add('kind', `Unsupported value: ${JSON.stringify(body.kind)}: must be "${expect.kind}"`);

  if (body.apiVersion === undefined) {
    p.add('apiVersion', `Required value: supported values: ${quoteList(expect.apiVersions)}`);
  } else if (typeof body.apiVersion !== 'string' || !expect.apiVersions.includes(body.apiVersion)) {
    p.add(
      'apiVersion',
      `Unsupported value: ${JSON.stringify(body.apiVersion)}: supported values: ${quoteList(expect.apiVersions)}`,
    );
  }

  let metadata: JsonObject = {};
  let name: string | undefined;
  if (!isRecord(body.metadata)) {
    p.add('metadata', 'Required value');
  } else {
    metadata = body.metadata;
    name = requiredString(p, metadata, 'name', 'metadata.name');
    if (name !== undefined) checkName(p, 'metadata.name', name, expect.maxNameLength);
    if (expect.environment !== undefined) {
      const env = requiredString(p, metadata, 'environment', 'metadata.environment');
      if (env !== undefined && env !== expect.environment) {
        p.add(
          'metadata.environment',
          `Invalid value: "${env}": must equal the environment in the path ("${expect.environment}")`,
        );
      }
    }
    optionalStringMap(p, metadata, 'labels', 'metadata.labels');
    optionalStringMap(p, metadata, 'annotations', 'metadata.annotations');
  }

  let spec: JsonObject = {};
  if (!isRecord(body.spec)) p.add('spec', 'Required value');
  else spec = body.spec;

  return { name, metadata, spec };
}

/** The body as an object, or a 400 when it is some other JSON value. */
export function requireObjectBody(body: unknown): JsonObject {
  if (!isRecord(body)) throw badRequest('request body must be a JSON object');
  return body;
}

/** Records a problem for each of metadata.name/environment/branch that a patch changed. */
export function checkImmutableMetadata(p: Problems, before: JsonObject, after: JsonObject): void {
  const a = isRecord(before.metadata) ? before.metadata : {};
  const b = isRecord(after.metadata) ? after.metadata : {};
  for (const key of ['name', 'environment', 'branch']) {
    if (a[key] !== b[key]) {
      p.add(`metadata.${key}`, `Invalid value: ${JSON.stringify(b[key])}: field is immutable`);
    }
  }
  for (const key of ['kind', 'apiVersion']) {
    if (before[key] !== after[key])
      p.add(key, `Invalid value: ${JSON.stringify(after[key])}: field is immutable`);
  }
}
