/**
 * What a request is, before it is sent: method, encoded path, query, body and
 * the headers the seed asks for (`Accept: application/json`, and
 * `Content-Type` by body kind, `application/json-patch+json` for JSON Patch,
 * `application/merge-patch+json` for a merge patch).
 */

import type { JsonPatchOperation } from '../api-shapes/resources.js';
import { GameFabricError } from './errors.js';
import type { RetryMode } from './retry.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RequestBody =
  | { json: unknown }
  | { patch: readonly JsonPatchOperation[] }
  /** RFC 7386 merge patch, as the provider writes Armadas and ArmadaSets. */
  | { mergePatch: Record<string, unknown> }
  | { form: Record<string, string> };

export interface RequestSpec {
  method: HttpMethod;
  /** Path below the base URL, built with `apiPath` so every parameter is encoded. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: RequestBody;
  retry: RetryMode;
  /** Sent without a token (the token endpoint itself). */
  anonymous?: boolean;
  /** The success body carries secrets (issued tokens): an error about it must not keep the body. */
  responseHasSecrets?: boolean;
  /** Accept header; JSON unless said otherwise. */
  accept?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
}

/** Builds a path from a template, encoding each interpolated value as one path segment. */
export function apiPath(strings: TemplateStringsArray, ...params: string[]): string {
  let out = strings[0] ?? '';
  params.forEach((param, i) => {
    out += encodeSegment(param) + (strings[i + 1] ?? '');
  });
  return out;
}

function encodeSegment(value: string): string {
  // URL parsing resolves `.`/`..` segments (even percent-encoded), which would address a different resource.
  if (value === '' || value === '.' || value === '..') {
    throw new GameFabricError(`invalid name in request path: ${JSON.stringify(value)}`);
  }
  return encodeURIComponent(value);
}

/** The path plus its query string, as requested and as shown in errors. */
export function pathWithQuery(spec: Pick<RequestSpec, 'path' | 'query'>): string {
  const entries = Object.entries(spec.query ?? {}).filter(
    (entry): entry is [string, string | number | boolean] => entry[1] !== undefined,
  );
  if (entries.length === 0) return spec.path;
  return `${spec.path}?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
}

/** The headers for `spec`: Accept, the token, and Content-Type by body kind; the spec's own headers win. */
export function headersFor(spec: RequestSpec, token: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { Accept: spec.accept ?? 'application/json' };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (spec.body && 'json' in spec.body) headers['Content-Type'] = 'application/json';
  if (spec.body && 'patch' in spec.body) headers['Content-Type'] = 'application/json-patch+json';
  if (spec.body && 'mergePatch' in spec.body) headers['Content-Type'] = 'application/merge-patch+json';
  if (spec.body && 'form' in spec.body) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  return { ...headers, ...spec.headers };
}

/** The serialised body of `spec`, if it has one. */
export function bodyOf(body: RequestBody | undefined): string | undefined {
  if (!body) return undefined;
  if ('json' in body) return JSON.stringify(body.json);
  if ('patch' in body) return JSON.stringify(body.patch);
  if ('mergePatch' in body) return JSON.stringify(body.mergePatch);
  return new URLSearchParams(body.form).toString();
}
