/**
 * The leases that mark an apply, or a change's follow-up, as alive.
 *
 * The apply lease marks an apply as alive. It belongs to one apply (its owner
 * is the replica id plus a fresh id per apply), never to a replica: recovery
 * on the same process, or a restarted process that reuses the replica id,
 * can not mistake a live apply for its own leftover. A heartbeat renews it
 * well inside its short TTL, so a dead owner's lease lapses within seconds
 * while a slow but live apply keeps it for as long as it runs.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { LeaseStore } from '../store/types.js';

/** How long an apply's lease lives without renewal: a dead owner is recovered this long after it died. */
export const DEFAULT_APPLY_LEASE_MS = 30_000;

/** The store key of a change's apply lease. */
export function applyLeaseKey(changeId: string): string {
  return `apply:${changeId}`;
}

/**
 * The store key of a change's follow-up lease: held while one replica follows the change up, so
 * housekeeping resumes a follow-up whose replica stopped, and never one that runs.
 */
export function followLeaseKey(changeId: string): string {
  return `follow:${changeId}`;
}

/** A lease owner that names the replica (for people reading the store) and is unique to one holder. */
export function uniqueOwner(replicaId: string, purpose: 'apply' | 'recover' | 'follow'): string {
  return `${replicaId}/${purpose}/${randomUUID()}`;
}

interface HeldLease {
  readonly owner: string;
  /** Stops the heartbeat and drops the lease. */
  release(): Promise<void>;
}

interface LeaseOptions {
  store: LeaseStore;
  clock: Clock;
  logger: Logger;
  ttlMs: number;
}

/**
 * Takes the lease of `changeId` for `owner` and keeps renewing it every third
 * of its TTL until released; undefined when someone else holds it.
 */
export function holdApplyLease(
  o: LeaseOptions,
  changeId: string,
  owner: string,
): Promise<HeldLease | undefined> {
  return holdLease(o, applyLeaseKey(changeId), changeId, owner);
}

/** Takes and keeps renewing the follow-up lease of `changeId`, as holdApplyLease does the apply's. */
export function holdFollowLease(
  o: LeaseOptions,
  changeId: string,
  owner: string,
): Promise<HeldLease | undefined> {
  return holdLease(o, followLeaseKey(changeId), changeId, owner);
}

async function holdLease(
  o: LeaseOptions,
  key: string,
  changeId: string,
  owner: string,
): Promise<HeldLease | undefined> {
  if (!(await o.store.acquireLease(key, owner, o.ttlMs, o.clock.now()))) return undefined;
  const stop = new AbortController();
  const heartbeat = (async () => {
    for (;;) {
      try {
        await o.clock.sleep(Math.max(1, Math.floor(o.ttlMs / 3)), stop.signal);
      } catch {
        return; // released
      }
      try {
        if (!(await o.store.renewLease(key, owner, o.ttlMs, o.clock.now()))) {
          o.logger.warn('a change lost its lease', { key, changeId, owner });
        }
      } catch (err) {
        // A store hiccup: the next beat tries again; the TTL leaves room for two misses.
        o.logger.warn('could not renew a change lease', { key, changeId, error: err });
      }
    }
  })();
  return {
    owner,
    release: async () => {
      stop.abort();
      await heartbeat;
      try {
        await o.store.releaseLease(key, owner);
      } catch (err) {
        // The store is failing: the lease lapses by its TTL instead, and the apply's outcome stands.
        o.logger.warn('could not release a change lease', { key, changeId, error: err });
      }
    },
  };
}
