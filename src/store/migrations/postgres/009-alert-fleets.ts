/**
 * PostgreSQL schema, version 9: the fleets behind a grouped alert (issue
 * 38.6: one alert per cause, a Site down or a Degraded reason, naming every
 * fleet behind it, edited as they recover). JSON text, as SQLite keeps it;
 * null on per-object alerts.
 */

import type { Migration } from '../types.js';

export const postgres009AlertFleets: Migration = {
  version: 9,
  name: 'alert-fleets',
  sql: `
ALTER TABLE watch_alerts ADD COLUMN fleets TEXT;
`,
};
