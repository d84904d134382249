/**
 * The Prometheus metrics a replica exposes on /metrics. Every replica has the
 * core's (`CoreMetrics`): the build, hosting API calls with latencies, the
 * housekeeping loops' passes and the guards'. A Slack replica adds its own
 * (`Metrics`): commands, clicks, view submissions, acks, Slack Web API calls,
 * errors of its handlers, shed requests, watches and the live tails' message
 * budget; a worker (HARBOR_ROLE=worker) has none of those, so it declares
 * none. Each replica gets its own registry (not prom-client's global one), so
 * several in one test process never collide.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type BudgetSource, registerTailBudgetMetrics } from './tail-budget-metrics.js';

/** The housekeeping loops (startup/core.ts): the lifecycle's, the scheduler's and, on a Slack replica, the drawing's. */
export type HousekeepingLoop = 'lifecycle' | 'scheduler' | 'drawing';

/** What every replica measures, Slack or not. */
export interface CoreMetrics {
  readonly registry: Registry;
  /** Hosting API calls by HTTP method, resource and status ('network' when no answer). */
  readonly apiCalls: Counter<'method' | 'resource' | 'status'>;
  readonly apiSeconds: Histogram<'method' | 'resource'>;
  /** Housekeeping passes by loop and outcome (`ok`, `failed`). */
  readonly housekeepingPasses: Counter<'loop' | 'outcome'>;
  /** How long a housekeeping pass took, by loop. */
  readonly housekeepingSeconds: Histogram<'loop'>;
  /** When a loop's last pass ended (Unix seconds, on the replica's clock): a loop that stopped passing shows here. */
  readonly housekeepingLastPass: Gauge<'loop'>;
  /** The guards' passes within the lifecycle's (issue 42), by outcome (`ok`, `failed`). */
  readonly guardPasses: Counter<'outcome'>;
}

/** A Slack replica's: the core's, and what only Slack gives it. */
export interface Metrics extends CoreMetrics {
  /** Slash commands by sub-command and outcome (ok, usage, user_error, error). */
  readonly commands: Counter<'command' | 'outcome'>;
  /** Button clicks and view submissions by action and outcome. */
  readonly interactions: Counter<'action' | 'outcome'>;
  /** Time from receiving a Slack request to acking it. */
  readonly ackSeconds: Histogram<'kind'>;
  /** Time from receiving a Slack request to finishing its work (answer posted). */
  readonly handleSeconds: Histogram<'kind'>;
  /** Slack Web API calls by method and outcome (ok, error code, rate_limited). */
  readonly slackCalls: Counter<'method' | 'outcome'>;
  /** Errors that reached the top-level handler, by where they happened. */
  readonly errors: Counter<'where'>;
  /** Requests refused "busy" because the backlog behind acks was full, by kind. */
  readonly shed: Counter<'kind'>;
  /** Slack slots taken from this replica's local share because the store (the shared budget) failed, by method. */
  readonly slackBudgetFallback: Counter<'method'>;
  /** Watch polls this replica made, by outcome (`polled`, `failed`), and alert messages it posted or edited (`posted`, `recovered`). */
  readonly watchEvents: Counter<'event'>;
  /** Exports the live tails' message budgets (granted, waiting, paused), read at each scrape. */
  observeTailBudgets(source: BudgetSource): void;
}

/** What `harbor_build_info` says about the running build. */
export interface BuildInfo {
  version: string;
  commit: string;
  node: string;
}

interface MetricsOptions {
  /**
   * Node and process metrics under their standard names (`process_cpu_seconds_total`,
   * `nodejs_heap_size_used_bytes`), as dashboards expect. Off in tests, where many bots share a process.
   */
  processMetrics?: boolean;
  build?: BuildInfo;
}

const LATENCY = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A fresh registry with the core's metrics (and Node process metrics when `processMetrics`). */
export function createCoreMetrics({ processMetrics = false, build }: MetricsOptions = {}): CoreMetrics {
  const registry = new Registry();
  // No prefix: Grafana's Node.js dashboards and the usual alerts query the standard names.
  if (processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  if (build) {
    new Gauge({
      name: 'harbor_build_info',
      help: 'The running build: package version, git commit and Node.js version (always 1)',
      labelNames: ['version', 'commit', 'node'],
      registers,
    }).set({ version: build.version, commit: build.commit, node: build.node }, 1);
  }
  return {
    registry,
    apiCalls: new Counter({
      name: 'harbor_api_calls_total',
      help: 'Hosting API calls by method, resource and status',
      labelNames: ['method', 'resource', 'status'],
      registers,
    }),
    apiSeconds: new Histogram({
      name: 'harbor_api_seconds',
      help: 'Hosting API call latency',
      labelNames: ['method', 'resource'],
      buckets: LATENCY,
      registers,
    }),
    housekeepingPasses: new Counter({
      name: 'harbor_housekeeping_passes_total',
      help: 'Housekeeping passes by loop (lifecycle, scheduler, drawing) and outcome (ok, failed)',
      labelNames: ['loop', 'outcome'],
      registers,
    }),
    housekeepingSeconds: new Histogram({
      name: 'harbor_housekeeping_pass_seconds',
      help: 'How long a housekeeping pass took, by loop',
      labelNames: ['loop'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300],
      registers,
    }),
    housekeepingLastPass: new Gauge({
      name: 'harbor_housekeeping_last_pass_timestamp_seconds',
      help: "When a housekeeping loop's last pass ended (Unix time), by loop",
      labelNames: ['loop'],
      registers,
    }),
    guardPasses: new Counter({
      name: 'harbor_guard_passes_total',
      help: "The guards' passes within housekeeping (guarded rollouts), by outcome (ok, failed)",
      labelNames: ['outcome'],
      registers,
    }),
  };
}

/** A fresh registry with a Slack replica's metrics: the core's and Slack's. */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const core = createCoreMetrics(options);
  const { registry } = core;
  const registers = [registry];
  return {
    ...core,
    observeTailBudgets: (source) => registerTailBudgetMetrics(registry, source),
    commands: new Counter({
      name: 'harbor_commands_total',
      help: 'Slash commands received, by sub-command and outcome',
      labelNames: ['command', 'outcome'],
      registers,
    }),
    interactions: new Counter({
      name: 'harbor_interactions_total',
      help: 'Button clicks and modal submissions, by action and outcome',
      labelNames: ['action', 'outcome'],
      registers,
    }),
    ackSeconds: new Histogram({
      name: 'harbor_ack_seconds',
      help: "Time from deciding a Slack request's ack to sending it (before Bolt's chain; type-ahead: its listener, read included)",
      labelNames: ['kind'],
      buckets: LATENCY,
      registers,
    }),
    handleSeconds: new Histogram({
      name: 'harbor_handle_seconds',
      help: 'Time from receiving a Slack request to finishing its work',
      labelNames: ['kind'],
      buckets: LATENCY,
      registers,
    }),
    slackCalls: new Counter({
      name: 'harbor_slack_calls_total',
      help: 'Slack Web API calls by method and outcome',
      labelNames: ['method', 'outcome'],
      registers,
    }),
    errors: new Counter({
      name: 'harbor_errors_total',
      help: 'Errors that reached a top-level handler, by where they happened',
      labelNames: ['where'],
      registers,
    }),
    shed: new Counter({
      name: 'harbor_requests_shed_total',
      help: 'Slack requests answered "busy" because the work queued behind acks was at its bound, by kind',
      labelNames: ['kind'],
      registers,
    }),
    slackBudgetFallback: new Counter({
      name: 'harbor_slack_budget_fallback_total',
      help: "Slack message slots taken from this replica's local share because the store holding the shared budget failed, by method",
      labelNames: ['method'],
      registers,
    }),
    watchEvents: new Counter({
      name: 'harbor_watch_events_total',
      help: 'Watch polls made by this replica (polled, failed) and alert messages it posted or edited (posted, recovered)',
      labelNames: ['event'],
      registers,
    }),
  };
}

/**
 * The resource segment of a hosting API path, for a low-cardinality label:
 * `/api/core/v1/environments/dev/vessels/x` -> `vessels`.
 */
export function apiResource(path: string): string {
  const parts = path.split('?')[0]?.split('/').filter(Boolean) ?? [];
  if (parts[0] !== 'api') return parts[0] ?? 'unknown';
  const known = ['imagepromotions', 'images', 'vessels', 'formations', 'regions', 'logs'];
  const hit = [...parts].reverse().find((p) => known.includes(p));
  return hit ?? parts[3] ?? 'unknown';
}
