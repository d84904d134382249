/** Row decoders of the watch tables (issue 29), through the same per-table zod schemas as the rest of the store. */

import { z } from 'zod';
import { compact, decoder, JSON_CODECS, rowSchema } from './rows.js';
import type { Dialect } from './sql.js';
import type {
  AlertFleet,
  WatchAlert,
  WatchPollerRecord,
  WatchSubscription,
  WatchTrouble,
} from './watch-types.js';

const AlertFleetsSchema = z.array(
  z.object({
    kind: z.enum(['Armada', 'ArmadaSet']),
    name: z.string(),
    region: z.string().optional(),
    recovered: z.boolean().optional(),
  }),
);

/** The fleets of a grouped alert, kept as JSON text; absent on per-object alerts. */
function decodeFleets(text: string | undefined): AlertFleet[] | undefined {
  if (text === undefined) return undefined;
  return AlertFleetsSchema.parse(JSON.parse(text)).map((f) => compact<AlertFleet>(f));
}

function schemas(dialect: Dialect) {
  const json = JSON_CODECS[dialect];
  const subscription = rowSchema('watch_subscriptions', json).transform(
    (r): WatchSubscription => ({
      workspace: r.workspace,
      channel: r.channel,
      env: r.env,
      createdBy: r.created_by,
      createdAt: r.created_at,
    }),
  );
  const poller = rowSchema('watch_pollers', json).transform((r) =>
    compact<WatchPollerRecord>({
      env: r.env,
      lastPollAt: r.last_poll_at,
      failures: r.failures,
      pausedStatus: r.paused_status,
      pausedAt: r.paused_at,
      resumeAt: r.resume_at,
      pausedReason: r.paused_reason,
    }),
  );
  const trouble = rowSchema('watch_troubles', json).transform((r) =>
    compact<WatchTrouble>({
      env: r.env,
      objectKey: r.object_key,
      kind: r.kind,
      name: r.name,
      state: r.state,
      reason: r.reason,
      detail: r.detail,
      firstBadAt: r.first_bad_at,
      lastBadAt: r.last_bad_at,
      goodSince: r.good_since,
    }),
  );
  const alert = rowSchema('watch_alerts', json).transform((r) =>
    compact<WatchAlert>({
      id: r.id,
      workspace: r.workspace,
      channel: r.channel,
      env: r.env,
      objectKey: r.object_key,
      kind: r.kind,
      name: r.name,
      region: r.region,
      state: r.state,
      reason: r.reason,
      detail: r.detail,
      fleets: decodeFleets(r.fleets),
      firstBadAt: r.first_bad_at,
      openedAt: r.opened_at,
      messageTs: r.message_ts,
      postClaim: r.post_claim,
      postClaimAt: r.post_claim_at,
      recoveredAt: r.recovered_at,
      lastedMs: r.lasted_ms,
      drawn: r.drawn,
      mutedUntil: r.muted_until,
      mutedBy: r.muted_by,
    }),
  );
  const progress = rowSchema('watch_progress', json).transform((r) => ({
    objectKey: r.object_key,
    mark: r.mark,
    since: r.since,
  }));
  return {
    progress: decoder('watch_progress', progress),
    subscription: decoder('watch_subscriptions', subscription),
    poller: decoder('watch_pollers', poller),
    trouble: decoder('watch_troubles', trouble),
    alert: decoder('watch_alerts', alert),
  };
}

export type WatchDecoders = ReturnType<typeof schemas>;

const DECODERS: Record<Dialect, WatchDecoders> = { sqlite: schemas('sqlite'), postgres: schemas('postgres') };

/** The watch tables' decoders for a dialect. */
export function watchDecoders(dialect: Dialect): WatchDecoders {
  return DECODERS[dialect];
}
