/**
 * SQLite schema, version 10: the fleets behind a grouped alert (issue 38.6:
 * one alert per cause, a Site down or a Degraded reason, naming every fleet
 * behind it, edited as they recover). JSON text; null on per-object alerts.
 */

import type { Migration } from '../types.js';

export const sqlite010AlertFleets: Migration = {
  version: 10,
  name: 'alert-fleets',
  sql: `
ALTER TABLE watch_alerts ADD COLUMN fleets TEXT;
`,
};
