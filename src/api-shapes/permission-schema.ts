/**
 * The permission model of the API, shared by the client and the simulator
 * like the resource schemas (resources.ts) and the name rules (names.ts):
 * which permission a request needs. GameFabric roles are lowercase
 * verbs (get, list, watch, post, put, patch, delete) on a resource of
 * an API group, scoped to an environment or a branch, with subresources such
 * as `vessels/logs`. The simulator authorizes by it; the client names it in
 * a 403 (permissions.ts). Pure data and path parsing, no client machinery.
 */

export interface RequiredPermission {
  group: string;
  /** Plural resource, with a subresource after a slash (e.g. `vessels/logs`). */
  resource: string;
  verb: string;
  scope?: { kind: 'environment' | 'branch'; name: string };
  /** The object name, when the request names one. */
  name?: string;
}

/**
 * A role can hold get, list, watch, post, put, patch and delete (the
 * provider's role resource, internal/resource/rbac/role.go): writes are named
 * by their HTTP method, not Kubernetes' create/update, which no role can be
 * granted.
 */
const VERBS: Record<string, string> = { POST: 'post', PUT: 'put', PATCH: 'patch', DELETE: 'delete' };

/** The permission `method path` needs, or undefined for a path outside /api/{group}/{version}/. */
export function requiredPermission(method: string, path: string): RequiredPermission | undefined {
  const segments = path.split('?')[0]?.split('/').filter(Boolean).map(decode) ?? [];
  if (segments[0] !== 'api' || segments.length < 4) return undefined;
  const group = segments[1] as string;
  let rest = segments.slice(3);
  let scope: RequiredPermission['scope'];
  if (rest[0] === 'environments' && rest[1]) {
    scope = { kind: 'environment', name: rest[1] };
    rest = rest.slice(2);
  }
  const [resource, second, third, fourth] = rest;
  if (!resource) return undefined;
  let name: string | undefined = second;
  let sub: string | undefined = third;
  if (second === 'scopes' && third) {
    scope = { kind: 'branch', name: third };
    name = fourth;
    sub = undefined;
  }
  const verb = VERBS[method.toUpperCase()] ?? (name === undefined ? 'list' : 'get');
  return {
    group,
    resource: sub ? `${resource}/${sub}` : resource,
    verb,
    ...(scope ? { scope } : {}),
    ...(name !== undefined ? { name } : {}),
  };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
