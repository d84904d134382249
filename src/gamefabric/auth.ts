/**
 * Where bearer tokens come from: a static token, or a service-account login
 * (`POST /auth/token`, OAuth2 password grant) that is renewed before it
 * expires and replaced once when the API refuses it. Concurrent callers share
 * one login in flight, so a burst of requests never logs in more than once.
 */
import { z } from 'zod';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { SecretRegistry } from './secrets.js';

export interface TokenSource {
  /** A token to send now, logging in or renewing first when needed. */
  getToken(): Promise<string>;
  /** Replaces a token the API refused with a 401; undefined when this source can not get another. */
  renewAfterRejection(rejected: string): Promise<string | undefined>;
}

const DEFAULT_CLIENT_ID = 'api';
/** `offline_access` asks for a refresh token, so renewals need not resend the password. */
const TOKEN_SCOPE = 'openid email profile offline_access';
export const TOKEN_PATH = '/auth/token';

export const TokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  // Some servers send it as a string.
  expires_in: z.coerce.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
});
type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** Posts a form to the token endpoint and returns its parsed answer (or throws its ApiError). */
type TokenExchange = (form: Record<string, string>) => Promise<TokenResponse>;

/** A source that always answers the same token and can not renew it. */
export function createStaticTokenSource(token: string): TokenSource {
  return {
    getToken: async () => token,
    renewAfterRejection: async () => undefined,
  };
}

interface ServiceAccountOptions {
  username: string;
  password: string;
  clientId?: string;
  exchange: TokenExchange;
  clock: Clock;
  /** Renew this long before expiry (at most half the token's lifetime). */
  renewBeforeMs: number;
  secrets: SecretRegistry;
  logger: Logger;
}

interface Session {
  accessToken: string;
  refreshToken: string | undefined;
  /** Undefined when the service did not say: then only a 401 triggers a new login. */
  expiresAt: number | undefined;
  renewAt: number | undefined;
}

/** A source that logs in with the service account's credentials and keeps the token fresh. */
export function createServiceAccountTokenSource(options: ServiceAccountOptions): TokenSource {
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  let session: Session | undefined;
  let inFlight: Promise<Session> | undefined;

  const adopt = (answer: TokenResponse): Session => {
    options.secrets.add(answer.access_token, answer.refresh_token);
    const now = options.clock.now();
    const lifetimeMs = answer.expires_in === undefined ? undefined : answer.expires_in * 1000;
    session = {
      accessToken: answer.access_token,
      // A refresh answer without a new refresh token leaves the old one usable.
      refreshToken: answer.refresh_token ?? session?.refreshToken,
      expiresAt: lifetimeMs === undefined ? undefined : now + lifetimeMs,
      renewAt:
        lifetimeMs === undefined
          ? undefined
          : now + lifetimeMs - Math.min(options.renewBeforeMs, lifetimeMs / 2),
    };
    options.logger.debug('gamefabric token issued', { expiresInS: answer.expires_in });
    return session;
  };

  const passwordLogin = () =>
    options.exchange({
      grant_type: 'password',
      client_id: clientId,
      scope: TOKEN_SCOPE,
      username: options.username,
      password: options.password,
    });

  /** Starts a login unless one is running; every caller gets the same promise. */
  const login = (allowRefresh: boolean): Promise<Session> => {
    if (inFlight) return inFlight;
    const refreshToken = allowRefresh ? session?.refreshToken : undefined;
    inFlight = (async () => {
      if (refreshToken !== undefined) {
        try {
          return adopt(
            await options.exchange({
              grant_type: 'refresh_token',
              client_id: clientId,
              refresh_token: refreshToken,
            }),
          );
        } catch (error) {
          // An expired or revoked refresh token is normal; the password still works.
          options.logger.info('gamefabric token refresh failed; logging in again', {
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
      return adopt(await passwordLogin());
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  return {
    async getToken() {
      const now = options.clock.now();
      const current = session;
      if (current && (current.renewAt === undefined || now < current.renewAt)) return current.accessToken;
      if (current?.expiresAt !== undefined && now < current.expiresAt) {
        // Renewing early: a failure here is not fatal while the old token is still valid.
        try {
          return (await login(true)).accessToken;
        } catch (error) {
          options.logger.warn('gamefabric token renewal failed; using the current token until it expires', {
            error: error instanceof Error ? error.message : String(error),
          });
          return current.accessToken;
        }
      }
      return (await login(true)).accessToken;
    },

    async renewAfterRejection(rejected) {
      if (inFlight) return (await inFlight).accessToken;
      // Another request already replaced the refused token.
      if (session && session.accessToken !== rejected) return session.accessToken;
      session = undefined;
      // A refused token means the session is gone; a refresh token from it would be refused as well.
      return (await login(false)).accessToken;
    },
  };
}
