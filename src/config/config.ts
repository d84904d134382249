/**
 * The one typed configuration, read once at start-up from the environment.
 * Every problem is collected and reported together as `VARIABLE: message`, so
 * a user fixes their setup in one pass instead of one crash at a time.
 */
import { hostname } from 'node:os';
import { z } from 'zod';
import { parseDuration } from '../policy/duration.js';

export interface SlackConfig {
  botToken?: string;
  appToken?: string;
  signingSecret?: string;
  apiUrl?: string;
  /** Socket Mode when an app-level token is present, HTTP otherwise. */
  mode: 'socket' | 'http';
  port: number;
  /** Interface the HTTP server binds to; undefined: all (as before). Local mode: 127.0.0.1. */
  host?: string;
  /**
   * HARBOR_METRICS_PORT: serve /metrics and the probes on this port (same interface) instead of
   * PORT, so an Ingress in front of PORT exposes only /slack/events. Undefined: on PORT.
   */
  metricsPort?: number;
  command: string;
}

type GameFabricAuthConfig = { token: string } | { username: string; password: string };

export interface GameFabricConfig {
  /** Undefined: run the embedded simulator with demo data. */
  url?: string;
  auth?: GameFabricAuthConfig;
  timeoutMs: number;
  vesselApiVersion: string;
}

export interface Config {
  slack: SlackConfig;
  /**
   * Local mode: no Slack at all; a local workspace in the browser plays Slack
   * (no Slack credentials set, HARBOR_LOCAL=1, or `--local`).
   */
  local: boolean;
  gamefabric: GameFabricConfig;
  policyPath?: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL connect and statement timeout: a hung database fails a click instead of hanging it. */
  databaseTimeoutMs: number;
  /** On SIGTERM, how long in-flight work may take before the process exits anyway (non-zero). */
  shutdownTimeoutMs: number;
  /**
   * On SIGTERM in HTTP mode, how long the bot keeps serving with readiness already 503, so load
   * balancers stop sending before the listener closes. Part of shutdownTimeoutMs, not added to it.
   */
  shutdownDrainMs: number;
  /** The git commit the build came from (HARBOR_BUILD_COMMIT; the image sets it), for harbor_build_info. */
  buildCommit: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  replicaId: string;
  /**
   * HARBOR_BRANCHES: an optional restriction to these branches. The branches
   * themselves come from the API (Branch objects); unset = all of them.
   */
  branches?: string[];
  /** Environments offered in forms and suggested when a name is mistyped (the API has no environment list). */
  environments: string[];
  /** Live log tails stop by themselves after this long. */
  tailMaxDurationMs: number;
  /** Watches: how often each watched environment is listed (HARBOR_WATCH_INTERVAL_S). */
  watchIntervalMs: number;
  /** Watches: how long trouble must last before it alerts, and be gone before it recovers (HARBOR_WATCH_SETTLE_S). */
  watchSettleMs: number;
  /**
   * Watches: how long a Vessel may be out of Running before it alerts (HARBOR_WATCH_VESSEL_STUCK_S,
   * default 600 s: the documented Starting timeout, GameFabric/docs deploy/vessel-states.md).
   */
  watchVesselStuckMs: number;
  /** How long after a change applies Roll back is offered (HARBOR_ROLLBACK_DAYS, default 7 days). */
  rollbackWindowMs: number;
  /** How late after its time a scheduled change may still apply (HARBOR_SCHEDULE_GRACE_S, default 600 s); later, it is missed. */
  scheduleGraceMs: number;
  /** How far ahead a change may be scheduled (HARBOR_SCHEDULE_MAX_DAYS, default 30 days). */
  scheduleMaxAheadMs: number;
}

type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** The port the bot listens on when PORT is unset. */
export const DEFAULT_PORT = 3000;

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const port = <F extends number | undefined>(name: string, fallback: F, example = '3000') =>
  z
    .string()
    .optional()
    .transform((v, ctx): number | F => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65535) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a port number 0-65535, e.g. ${example}` });
        return z.NEVER;
      }
      return n;
    });

const nonNegativeInt = (example: string, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) {
        ctx.addIssue({ code: 'custom', message: `must be a whole number of milliseconds, e.g. ${example}` });
        return z.NEVER;
      }
      return n;
    });

const positiveInt = (example: string, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0) {
        ctx.addIssue({ code: 'custom', message: `must be a positive integer, e.g. ${example}` });
        return z.NEVER;
      }
      return n;
    });

const EnvSchema = z.object({
  SLACK_BOT_TOKEN: optionalString.refine((v) => v === undefined || v.startsWith('xoxb-'), {
    message: 'must be a bot token starting with xoxb- (OAuth & Permissions page of your Slack app)',
  }),
  SLACK_APP_TOKEN: optionalString.refine((v) => v === undefined || v.startsWith('xapp-'), {
    message: 'must be an app-level token starting with xapp- (Basic Information > App-Level Tokens)',
  }),
  SLACK_SIGNING_SECRET: optionalString,
  SLACK_API_URL: optionalString.refine((v) => v === undefined || /^https?:\/\//.test(v), {
    message: 'must be an http(s) URL ending in /api/, e.g. http://127.0.0.1:4000/api/',
  }),
  PORT: port('PORT', DEFAULT_PORT),
  HARBOR_LISTEN_HOST: optionalString.refine((v) => v === undefined || /^[A-Za-z0-9.:-]+$/.test(v), {
    message: 'must be an interface address or host name, e.g. 127.0.0.1 or 0.0.0.0',
  }),
  HARBOR_LOCAL: optionalString.refine((v) => v === undefined || /^(1|0|true|false)$/.test(v), {
    message: 'must be 1 (or true) to force local mode, 0 (or false) otherwise',
  }),
  HARBOR_COMMAND: optionalString.refine((v) => v === undefined || /^\/[a-z0-9_-]{1,31}$/.test(v), {
    message: 'must be a slash command like /harbor (lowercase, at most 32 characters)',
  }),
  GAMEFABRIC_URL: optionalString.refine((v) => v === undefined || /^https?:\/\//.test(v), {
    message: 'must be an http(s) URL, e.g. https://api.example.gamefabric.dev',
  }),
  GAMEFABRIC_TOKEN: optionalString,
  GAMEFABRIC_USERNAME: optionalString,
  GAMEFABRIC_PASSWORD: optionalString,
  GAMEFABRIC_TIMEOUT_MS: positiveInt('15000', 15_000),
  GAMEFABRIC_VESSEL_API_VERSION: optionalString,
  HARBOR_POLICY: optionalString,
  HARBOR_DATA_DIR: optionalString,
  DATABASE_URL: optionalString.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), {
    message: 'must be a PostgreSQL URL, e.g. postgres://user@db.internal:5432/harbormaster',
  }),
  DATABASE_TIMEOUT_MS: positiveInt('10000', 10_000),
  HARBOR_SHUTDOWN_TIMEOUT_MS: positiveInt('20000', 20_000),
  HARBOR_SHUTDOWN_DRAIN_MS: nonNegativeInt('5000', 0),
  HARBOR_ROLLBACK_DAYS: positiveInt('7', 7),
  HARBOR_SCHEDULE_GRACE_S: positiveInt('600', 600),
  HARBOR_SCHEDULE_MAX_DAYS: positiveInt('30', 30),
  HARBOR_METRICS_PORT: port('HARBOR_METRICS_PORT', undefined, '9090'),
  HARBOR_BUILD_COMMIT: optionalString,
  HARBOR_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).optional(),
  HARBOR_REPLICA_ID: optionalString,
  HARBOR_TAIL_MAX_DURATION: optionalString,
  HARBOR_WATCH_INTERVAL_S: positiveInt('30', 30),
  HARBOR_WATCH_SETTLE_S: nonNegativeInt('60', 60),
  HARBOR_WATCH_VESSEL_STUCK_S: positiveInt('600', 600),
  HARBOR_BRANCHES: optionalString.refine(
    (v) => v === undefined || v.split(',').every((b) => /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(b.trim())),
    { message: 'must be a comma-separated list of branch names, e.g. dev,staging,prod' },
  ),
  HARBOR_ENVIRONMENTS: optionalString.refine(
    (v) => v === undefined || v.split(',').every((b) => /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(b.trim())),
    { message: 'must be a comma-separated list of environment names, e.g. dev,staging,prod' },
  ),
});

/** Every environment variable the config reads: the deployment manifests may set these and no others. */
export const CONFIG_ENV_NAMES: readonly string[] = Object.keys(EnvSchema.shape);

interface ReadConfigOptions {
  /** `--local` on the command line: local mode even with Slack credentials set. */
  local?: boolean;
}

/** Reads and validates the configuration from `env` (defaults to the process environment). */
export function readConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: ReadConfigOptions = {},
): ConfigResult {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    };
  }
  const e = parsed.data;
  const problems: string[] = [];

  let auth: GameFabricAuthConfig | undefined;
  if (e.GAMEFABRIC_TOKEN) {
    auth = { token: e.GAMEFABRIC_TOKEN };
  } else if (e.GAMEFABRIC_USERNAME || e.GAMEFABRIC_PASSWORD) {
    if (!e.GAMEFABRIC_USERNAME || !e.GAMEFABRIC_PASSWORD) {
      problems.push(
        'GAMEFABRIC_USERNAME/GAMEFABRIC_PASSWORD: set both for service-account login (or GAMEFABRIC_TOKEN instead)',
      );
    } else {
      auth = { username: e.GAMEFABRIC_USERNAME, password: e.GAMEFABRIC_PASSWORD };
    }
  }
  if (e.GAMEFABRIC_URL && !auth && problems.length === 0) {
    problems.push(
      'GAMEFABRIC_TOKEN: GAMEFABRIC_URL is set but no credentials are: set GAMEFABRIC_TOKEN, or GAMEFABRIC_USERNAME and GAMEFABRIC_PASSWORD',
    );
  }

  if (e.HARBOR_SHUTDOWN_DRAIN_MS >= e.HARBOR_SHUTDOWN_TIMEOUT_MS) {
    problems.push(
      `HARBOR_SHUTDOWN_DRAIN_MS: must be less than HARBOR_SHUTDOWN_TIMEOUT_MS (${e.HARBOR_SHUTDOWN_TIMEOUT_MS} ms): the drain is part of the shutdown, which also lets work in progress finish`,
    );
  }

  const tailDuration = parseDuration(e.HARBOR_TAIL_MAX_DURATION ?? '2h');
  if ('problem' in tailDuration) problems.push(`HARBOR_TAIL_MAX_DURATION: ${tailDuration.problem}`);

  if (problems.length > 0 || 'problem' in tailDuration) return { ok: false, problems };

  // No Slack credential at all means nobody has set Slack up yet: run the local
  // workspace. A partial set is a mistake worth reporting, not a reason to go local.
  const noSlack = !e.SLACK_BOT_TOKEN && !e.SLACK_APP_TOKEN && !e.SLACK_SIGNING_SECRET;
  const local =
    options.local === true ||
    e.HARBOR_LOCAL === '1' ||
    e.HARBOR_LOCAL === 'true' ||
    (noSlack && !e.HARBOR_LOCAL);
  const host = e.HARBOR_LISTEN_HOST ?? (local ? '127.0.0.1' : undefined);

  return {
    ok: true,
    config: {
      slack: {
        botToken: e.SLACK_BOT_TOKEN,
        appToken: e.SLACK_APP_TOKEN,
        signingSecret: e.SLACK_SIGNING_SECRET,
        apiUrl: e.SLACK_API_URL,
        mode: e.SLACK_APP_TOKEN ? 'socket' : 'http',
        port: e.PORT,
        ...(host ? { host } : {}),
        ...(e.HARBOR_METRICS_PORT !== undefined ? { metricsPort: Number(e.HARBOR_METRICS_PORT) } : {}),
        command: e.HARBOR_COMMAND ?? '/harbor',
      },
      local,
      gamefabric: {
        url: e.GAMEFABRIC_URL?.replace(/\/+$/, ''),
        auth,
        timeoutMs: e.GAMEFABRIC_TIMEOUT_MS,
        vesselApiVersion: e.GAMEFABRIC_VESSEL_API_VERSION ?? 'formation/v1beta1',
      },
      policyPath: e.HARBOR_POLICY,
      // The local workspace forgets everything when it stops, so its store does too.
      dataDir: e.HARBOR_DATA_DIR ?? (local ? ':memory:' : './data'),
      databaseUrl: e.DATABASE_URL,
      databaseTimeoutMs: e.DATABASE_TIMEOUT_MS,
      shutdownTimeoutMs: e.HARBOR_SHUTDOWN_TIMEOUT_MS,
      shutdownDrainMs: e.HARBOR_SHUTDOWN_DRAIN_MS,
      buildCommit: e.HARBOR_BUILD_COMMIT ?? 'unknown',
      logLevel: e.HARBOR_LOG_LEVEL ?? 'info',
      replicaId: e.HARBOR_REPLICA_ID ?? `${hostname()}-${process.pid}`,
      tailMaxDurationMs: tailDuration.ms,
      watchIntervalMs: e.HARBOR_WATCH_INTERVAL_S * 1000,
      watchSettleMs: e.HARBOR_WATCH_SETTLE_S * 1000,
      watchVesselStuckMs: e.HARBOR_WATCH_VESSEL_STUCK_S * 1000,
      rollbackWindowMs: e.HARBOR_ROLLBACK_DAYS * 86_400_000,
      scheduleGraceMs: e.HARBOR_SCHEDULE_GRACE_S * 1000,
      scheduleMaxAheadMs: e.HARBOR_SCHEDULE_MAX_DAYS * 86_400_000,
      ...(e.HARBOR_BRANCHES ? { branches: e.HARBOR_BRANCHES.split(',').map((b) => b.trim()) } : {}),
      environments: (e.HARBOR_ENVIRONMENTS ?? 'dev,prod').split(',').map((b) => b.trim()),
    },
  };
}

/** Every secret in the config, for the logger's redaction list. */
export function configSecrets(config: Config): string[] {
  const auth = config.gamefabric.auth;
  return [
    config.slack.botToken,
    config.slack.appToken,
    config.slack.signingSecret,
    auth && 'token' in auth ? auth.token : undefined,
    auth && 'password' in auth ? auth.password : undefined,
    config.databaseUrl ? passwordOfUrl(config.databaseUrl) : undefined,
  ].filter((s): s is string => typeof s === 'string' && s.length > 0);
}

function passwordOfUrl(url: string): string | undefined {
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : undefined;
  } catch {
    return undefined;
  }
}

/** Slack variables still missing for the chosen mode, with how to get each (for the start-up message). */
export function missingSlackSettings(slack: SlackConfig): string[] {
  const missing: string[] = [];
  if (!slack.botToken) {
    missing.push(
      'SLACK_BOT_TOKEN (xoxb-...): create the app from manifest.yml at https://api.slack.com/apps, install it to your workspace, then copy OAuth & Permissions > Bot User OAuth Token',
    );
  }
  if (slack.mode === 'http' && !slack.signingSecret) {
    missing.push(
      'SLACK_APP_TOKEN (xapp-..., for Socket Mode, recommended): Basic Information > App-Level Tokens > Generate, scope connections:write; or, for HTTP mode, SLACK_SIGNING_SECRET from Basic Information > App Credentials',
    );
  }
  return missing;
}
