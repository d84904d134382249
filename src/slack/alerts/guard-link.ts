/**
 * An open watch alert links to the automatic rollback of a guarded change
 * that touched its object (issue 42): the alert's message says Harbormaster
 * rolled the change back, with a link to the change's message, from the
 * guards the store keeps (the objects each watched, its trigger). The link
 * is read each time the alert is drawn, so its recovery keeps it; when a
 * guard rolls back, the open alerts of its objects are redrawn at once.
 */
import type { ChangeEvent, ChangeEvents } from '../../changes/events.js';
import { objectOf } from '../../guards/sightings.js';
import type { Logger } from '../../runtime/logger.js';
import type { GuardRecord, GuardStore } from '../../store/guard-types.js';
import type { ChangeStore } from '../../store/types.js';
import type { WatchAlert, WatchStore } from '../../store/watch-types.js';
import type { AlertMessenger } from '../../watches/types.js';
import { escapeFit } from '../render/blocks.js';
import { linked, permalink } from '../render/permalink.js';

/** How long before an alert's trouble began a guard's rollback is still about it (a guard's window is at most a day). */
const LOOKBACK_MS = 24 * 3_600_000;

type Reads = Pick<GuardStore, 'listRolledBackGuards'> & Pick<ChangeStore, 'getChange'>;

/** The objects an alert is about: its own, and the fleets behind its cause. */
function keysOf(alert: WatchAlert): string[] {
  return [
    objectOf(alert.env, alert.kind, alert.name),
    ...(alert.fleets ?? []).map((f) => objectOf(alert.env, f.kind, f.name)),
  ];
}

const touches = (g: GuardRecord, keys: readonly string[]) =>
  g.touched?.some((k) => keys.includes(k)) ?? false;

/** The line the alert shows about a guard's rollback of a change that touched its object, or undefined. */
export async function guardLine(store: Reads, alert: WatchAlert): Promise<string | undefined> {
  const keys = keysOf(alert);
  const guard = (await store.listRolledBackGuards(alert.firstBadAt - LOOKBACK_MS, 50)).find((g) =>
    touches(g, keys),
  );
  if (!guard) return undefined;
  const change = await store.getChange(guard.changeId);
  const { channel, messageTs, threadTs } = change?.origin ?? {};
  const link = channel && messageTs ? permalink(channel, messageTs, threadTs) : undefined;
  return `:rewind: Harbormaster rolled back ${linked(`change ${escapeFit(guard.changeId, 80)}`, link)} automatically: its guard saw ${escapeFit(guard.trigger ?? 'trouble', 600)}`;
}

/** Redraws the open alerts of a guard's objects when it rolls its change back (told by the replica that ended it). */
export function linkAlertsToGuards(
  events: ChangeEvents,
  deps: {
    store: Pick<GuardStore, 'getGuard'> & Pick<WatchStore, 'listAlerts'>;
    messenger: AlertMessenger;
    logger: Logger;
  },
): () => void {
  return events.on(async (event: ChangeEvent) => {
    if (event.kind !== 'guarded' || event.outcome.state !== 'rolled_back') return;
    const guard = await deps.store.getGuard(event.change.id);
    const touched = guard?.touched ?? [];
    for (const env of new Set(touched.map((k) => k.split('|')[0] as string))) {
      for (const alert of await deps.store.listAlerts({ env, open: true })) {
        if (!alert.messageTs || !keysOf(alert).some((k) => touched.includes(k))) continue;
        await deps.messenger
          .update({ ...alert, messageTs: alert.messageTs })
          .catch((error: unknown) =>
            deps.logger.warn('could not link an alert to a guard', { alertId: alert.id, error }),
          );
      }
    }
  });
}
