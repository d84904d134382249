/**
 * Bearer-token authentication and per-resource, per-method permissions, plus
 * the OAuth2 token endpoint (password and refresh_token grants) that issues
 * tokens expiring on the injected clock.
 */
import { z } from 'zod';
import { requiredPermission } from '../api-shapes/permission-schema.js';
import type { Clock } from '../runtime/clock.js';
import { mediaType, readBody } from './http-utils/body.js';
import type { RequestContext } from './http-utils/context.js';
import { SimError } from './http-utils/status.js';
import { randomHex } from './random.js';
import {
  type PermissionRule,
  type Permissions,
  type ServiceAccountData,
  SIM_METHODS,
  SIM_RESOURCES,
  type SimResource,
} from './types.js';

/** Every method on every resource. */
export const FULL_PERMISSIONS: Permissions = Object.fromEntries(
  SIM_RESOURCES.map((r) => [r, [...SIM_METHODS]]),
);

export const DEMO_TOKEN = 'demo-token';
export const DEMO_USERNAME = 'harbormaster@demo.local';
export const DEMO_PASSWORD = 'demo-password';

/** The demo account: full permissions, static token `demo-token`. */
export function demoAccount(): ServiceAccountData {
  return {
    name: DEMO_USERNAME,
    password: DEMO_PASSWORD,
    tokens: [DEMO_TOKEN],
    permissions: FULL_PERMISSIONS,
  };
}

/** Refresh tokens outlive access tokens; 30 days is Keycloak's offline default order of magnitude. */
const REFRESH_TTL_SECONDS = 30 * 24 * 3600;

const ServiceAccountSchema = z.strictObject({
  name: z.string().min(1),
  password: z.string().min(1).optional(),
  tokens: z.array(z.string().min(1)).optional(),
  permissions: z.partialRecord(z.enum(SIM_RESOURCES), z.array(z.enum(SIM_METHODS))),
  rules: z
    .array(
      z.strictObject({
        apiGroups: z.array(z.string()),
        resources: z.array(z.string()),
        verbs: z.array(z.string()),
        environments: z.array(z.string()).optional(),
        scopes: z.array(z.string()).optional(),
        resourceNames: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});

/** Validates a service account (from a data file or a test); throws naming the bad field. */
function parseServiceAccount(value: unknown): ServiceAccountData {
  const result = ServiceAccountSchema.safeParse(value);
  if (!result.success) {
    throw new Error(
      `invalid service account: ${result.error.issues.map((i) => `${i.path.join('.') || '<root>'}: ${i.message}`).join('; ')}`,
    );
  }
  return result.data;
}

interface IssuedToken {
  account: string;
  expiresAt: number;
  offline: boolean;
}

/** The method a request needs permission for (HEAD reads like GET). */
function permissionMethod(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}

/** Service accounts, issued tokens, and the checks every /api request goes through. */
export class AuthService {
  private readonly accounts = new Map<string, ServiceAccountData>();
  private readonly accessTokens = new Map<string, IssuedToken>();
  private readonly refreshTokens = new Map<string, IssuedToken>();

  constructor(
    private readonly clock: Clock,
    private readonly random: () => number,
    private readonly tokenTtlSeconds: number,
  ) {}

  /** Adds or replaces (by name) a service account. */
  addAccount(account: ServiceAccountData): void {
    this.accounts.set(account.name, parseServiceAccount(account));
  }

  /** The account behind an Authorization header; 401 when missing, unknown or expired. */
  authenticate(header: string | undefined): ServiceAccountData {
    if (!header) throw unauthorized('missing "Authorization: Bearer <token>" header');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw unauthorized('the Authorization header must be "Bearer <token>"');
    const token = match[1];
    for (const account of this.accounts.values()) {
      if (account.tokens?.includes(token)) return account;
    }
    const issued = this.accessTokens.get(token);
    if (!issued) throw unauthorized('invalid token');
    if (this.clock.now() >= issued.expiresAt) throw unauthorized('token expired');
    const account = this.accounts.get(issued.account);
    if (!account) throw unauthorized('the token belongs to a service account that no longer exists');
    return account;
  }

  /** 403 unless the account may use `method` on `resource` (on `path`, when the account has role rules). */
  authorize(account: ServiceAccountData, resource: SimResource, method: string, path = ''): void {
    if (account.rules) {
      authorizeByRules(account, account.rules, method, path);
      return;
    }
    const wanted = permissionMethod(method);
    const granted = account.permissions[resource] ?? [];
    if (!(granted as readonly string[]).includes(wanted)) {
      throw new SimError(
        403,
        'Forbidden',
        `service account "${account.name}" lacks ${wanted} permission on ${resource}`,
        { resource, method: wanted },
      );
    }
  }

  /** POST /auth/token: answers an OAuth2 token response or an OAuth2 error body. */
  async handleTokenRequest(ctx: RequestContext): Promise<void> {
    if (ctx.method !== 'POST') {
      ctx.json(405, { error: 'invalid_request', error_description: 'use POST' }, { allow: 'POST' });
      return;
    }
    if (mediaType(ctx.req) !== 'application/x-www-form-urlencoded') {
      oauthError(ctx, 400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
      return;
    }
    const form = new URLSearchParams(await readBody(ctx.req));
    // The Terraform provider sends the client id in an HTTP Basic header; the docs' curl in the form.
    const clientId = form.get('client_id') ?? basicClientId(ctx.req.headers.authorization);
    if (clientId !== 'api') {
      oauthError(ctx, 401, 'invalid_client', 'unknown client_id (expected "api")');
      return;
    }
    const grant = form.get('grant_type');
    if (grant === 'password') return this.passwordGrant(ctx, form);
    if (grant === 'refresh_token') return this.refreshGrant(ctx, form);
    oauthError(ctx, 400, 'unsupported_grant_type', `grant_type "${grant ?? ''}" is not supported`);
  }

  private passwordGrant(ctx: RequestContext, form: URLSearchParams): void {
    const username = form.get('username');
    const password = form.get('password');
    if (!username || !password) {
      oauthError(ctx, 400, 'invalid_request', 'username and password are required');
      return;
    }
    const account = this.accounts.get(username);
    if (!account?.password || account.password !== password) {
      oauthError(ctx, 401, 'invalid_grant', 'Invalid user credentials');
      return;
    }
    if (ctx.entry) ctx.entry.account = account.name;
    const offline = (form.get('scope') ?? '').split(/\s+/).includes('offline_access');
    this.issue(ctx, account.name, offline);
  }

  private refreshGrant(ctx: RequestContext, form: URLSearchParams): void {
    const presented = form.get('refresh_token') ?? '';
    const issued = this.refreshTokens.get(presented);
    if (!issued || this.clock.now() >= issued.expiresAt || !this.accounts.has(issued.account)) {
      oauthError(ctx, 400, 'invalid_grant', 'Token is not active');
      return;
    }
    if (ctx.entry) ctx.entry.account = issued.account;
    this.issue(ctx, issued.account, issued.offline);
  }

  private issue(ctx: RequestContext, account: string, offline: boolean): void {
    const now = this.clock.now();
    const accessToken = `sim-at-${randomHex(this.random, 32)}`;
    this.accessTokens.set(accessToken, { account, expiresAt: now + this.tokenTtlSeconds * 1000, offline });
    const body: Record<string, unknown> = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: this.tokenTtlSeconds,
      scope: offline ? 'openid email profile offline_access' : 'openid email profile',
    };
    if (offline) {
      const refreshToken = `sim-rt-${randomHex(this.random, 32)}`;
      this.refreshTokens.set(refreshToken, { account, expiresAt: now + REFRESH_TTL_SECONDS * 1000, offline });
      body.refresh_token = refreshToken;
      body.refresh_expires_in = REFRESH_TTL_SECONDS;
    }
    ctx.json(200, body, { 'cache-control': 'no-store', pragma: 'no-cache' });
  }
}

const anyOf = (list: readonly string[] | undefined, value: string | undefined) =>
  list === undefined || list.includes('*') || (value !== undefined && list.includes(value));

/** The real platform's check: some rule grants the verb on the (sub)resource in the request's scope. */
function authorizeByRules(
  account: ServiceAccountData,
  rules: PermissionRule[],
  method: string,
  path: string,
) {
  const need = requiredPermission(permissionMethod(method), path);
  if (!need) return;
  const env = need.scope?.kind === 'environment' ? need.scope.name : undefined;
  const branch = need.scope?.kind === 'branch' ? need.scope.name : undefined;
  const granted = rules.some(
    (r) =>
      anyOf(r.apiGroups, need.group) &&
      anyOf(r.resources, need.resource) &&
      anyOf(r.verbs, need.verb) &&
      (env === undefined || anyOf(r.environments, env)) &&
      (branch === undefined || anyOf(r.scopes, branch)) &&
      (need.name === undefined || anyOf(r.resourceNames, need.name)),
  );
  if (granted) return;
  const where = need.scope ? ` in ${need.scope.kind} "${need.scope.name}"` : '';
  const object = need.name ? ` "${need.name}"` : '';
  throw new SimError(
    403,
    'Forbidden',
    `${need.resource}${object} is forbidden: service account "${account.name}" cannot ${need.verb} resource "${need.resource}" in API group "${need.group}"${where}`,
    { group: need.group, kind: need.resource, ...(need.name ? { name: need.name } : {}) },
  );
}

/** The user part of `Authorization: Basic base64(client_id:secret)`, if that is the header. */
function basicClientId(header: string | undefined): string | undefined {
  const match = /^Basic\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return decodeURIComponent(colon < 0 ? decoded : decoded.slice(0, colon));
}

function unauthorized(message: string): SimError {
  return new SimError(401, 'Unauthorized', `Unauthorized: ${message}`, undefined, {
    'www-authenticate': 'Bearer realm="gamefabric"',
  });
}

function oauthError(ctx: RequestContext, status: number, error: string, description: string): void {
  ctx.json(status, { error, error_description: description }, { 'cache-control': 'no-store' });
}
