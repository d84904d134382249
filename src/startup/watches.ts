/**
 * Wires watches (issue 29) for one replica: the commands' domain (Watches),
 * the alert messages' one owner (through the Slack gateway, behind people
 * and change outcomes), and the watch loop that polls the
 * environments whose lease this replica holds.
 */
import { randomUUID } from 'node:crypto';
import type { ChangeEvents } from '../changes/events.js';
import type { Config } from '../config/config.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { Metrics } from '../runtime/metrics.js';
import { guardLine, linkAlertsToGuards } from '../slack/alerts/guard-link.js';
import { slackAlertMessenger } from '../slack/alerts/messenger.js';
import type { SlackGateway } from '../slack/gateway/gateway.js';
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
  /** The bot's one way to Slack (slack/gateway): alerts go through it as alerts. */
  gateway: Pick<SlackGateway, 'call'>;
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
    gateway: w.gateway,
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
