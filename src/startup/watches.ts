/**
 * Wires watches (issue 29) for one replica: the commands' domain (Watches),
 * the alert messages' one owner (over the tails' own client, paced by the
 * shared Slack budget behind people), and the watch loop that polls the
 * environments whose lease this replica holds.
 */
import { randomUUID } from 'node:crypto';
import type { FetchFunction } from '@slack/web-api';
import type { ChangeEvents } from '../changes/events.js';
import type { Config } from '../config/config.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import { guardLine, linkAlertsToGuards } from '../slack/alerts/guard-link.js';
import { slackAlertMessenger } from '../slack/alerts/messenger.js';
import { webApiTailSlack } from '../slack/tails/slack-calls.js';
import type { SharedSlots } from '../slack-budget/shared-slots.js';
import { policyMayRead } from '../watches/channel-reads.js';
import { Watches } from '../watches/manage.js';
import { Watcher } from '../watches/watcher.js';
import type { Core } from './core.js';

export interface WatchWiring {
  config: Config;
  core: Core;
  logger: Logger;
  /** The watch loop's clock (tests: a ManualClock). */
  clock: Clock;
  /** The shared budget's clock and slots. */
  budgetClock: Clock;
  slots(workspace: string): SharedSlots;
  fetch?: FetchFunction;
  stopping: AbortSignal;
  metrics: Metrics;
  /** The engine's change events (a guard's rollback redraws the alerts of its objects). */
  changeEvents?: ChangeEvents;
}

/** The watches of one replica: the commands' domain and the loop (not started). */
export function wireWatches(w: WatchWiring): { watches: Watches; watcher: Watcher } {
  const { config, core } = w;
  const logger = w.logger.child({ component: 'watches' });
  const environments = async (): Promise<string[]> => {
    try {
      return (await core.api.client.listEnvironments()).map((e) => e.metadata.name);
    } catch {
      // The API could not say: the configured ones, as forms offer them.
      return [...config.environments];
    }
  };
  const watches = new Watches({
    store: core.store,
    policy: core.policy,
    environments,
    intervalMs: config.watchIntervalMs,
    settleMs: config.watchSettleMs,
  });
  const messenger = slackAlertMessenger({
    slack: webApiTailSlack({
      token: config.slack.botToken ?? '',
      ...(config.slack.apiUrl ? { apiUrl: config.slack.apiUrl } : {}),
      logger,
      ...(w.fetch ? { fetch: w.fetch } : {}),
    }),
    slots: w.slots,
    clock: w.budgetClock,
    stopping: w.stopping,
    // An alert on an object a guard rolled back links to the change (issue 42).
    guardLine: (alert) => guardLine(core.store, alert),
  });
  // The replica that ended a guard redraws the open alerts of its objects, linked to the rollback.
  if (w.changeEvents) linkAlertsToGuards(w.changeEvents, { store: core.store, messenger, logger });
  const watcher = new Watcher({
    store: core.store,
    source: core.api.client,
    messenger,
    mayRead: policyMayRead(core.policy),
    intervalMs: config.watchIntervalMs,
    settleMs: config.watchSettleMs,
    vesselStuckMs: config.watchVesselStuckMs,
    replica: config.replicaId,
    newId: randomUUID,
    logger,
    count: (event) => w.metrics.watchEvents.inc({ event }),
    clock: w.clock,
  });
  return { watches, watcher };
}
