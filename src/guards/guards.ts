/**
 * Guarded rollouts (issue 42), run by every replica's housekeeping pass. A
 * guard is a row in the store from its change's apply until its window ends
 * (store/guard-store.ts); each pass, a replica takes or renews the lease of
 * each open guard (the lease is in the row: one holder at a time, a dead
 * one replaced once its lease lapses), looks at what the change touched
 * (sightings.ts), keeps when each trouble was first seen (in the row, so a
 * takeover keeps the settle clock), and when one is due rolls the change
 * back through the engine (engine/guard-rollback.ts). A clean window ends
 * as passed. Every end is told as a `guarded` change event by the engine;
 * nothing here knows who draws it.
 */
import { randomUUID } from 'node:crypto';
import type { Change } from '../changes/change.js';
import type { ChangeEngine } from '../changes/engine.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { GuardRecord, GuardStore } from '../store/guard-types.js';
import { type GuardSource, type Sighting, sightings } from './sightings.js';
import { touchedBy } from './touched.js';

/** How many open guards one pass looks at. */
const PASS_LIMIT = 100;

export interface GuardsOptions {
  store: GuardStore;
  engine: Pick<ChangeEngine, 'get' | 'rollbackByGuard' | 'endGuard'>;
  source: GuardSource;
  clock: Pick<Clock, 'now'>;
  logger: Logger;
  replicaId: string;
  /** How long trouble must last before it triggers (the watches' settle time, HARBOR_WATCH_SETTLE_S). */
  settleMs: number;
  /** How long a guard's lease holds without renewal: a dead holder is replaced this long after its last pass. */
  leaseMs: number;
}

export class Guards {
  /** This process's name on the leases it holds (unique per process: a restart is a new holder). */
  private readonly owner: string;

  constructor(private readonly o: GuardsOptions) {
    this.owner = `${o.replicaId}/guard/${randomUUID()}`;
  }

  /** One pass over every open guard; a guard that fails is logged and tried again next pass. */
  async pass(): Promise<void> {
    for (const guard of await this.o.store.listOpenGuards(PASS_LIMIT)) {
      try {
        await this.guardOne(guard);
      } catch (error) {
        this.o.logger.warn('a guard pass failed; the next pass tries again', {
          changeId: guard.changeId,
          error,
        });
      }
    }
  }

  private async guardOne(open: GuardRecord): Promise<void> {
    const { store, clock } = this.o;
    const now = clock.now();
    const held = await store.leaseGuard(open.changeId, this.owner, this.o.leaseMs, now);
    if (!held) return;
    const change = await this.o.engine.get(held.changeId);
    if (!change) {
      await store.moveGuard(
        held.changeId,
        this.owner,
        ['watching', 'rolling_back'],
        { state: 'held', reason: 'the change no longer exists', endedAt: now },
        now,
      );
      return;
    }
    if (held.state === 'rolling_back')
      return this.rollBack(held, change, held.trigger ?? 'a trigger (not recorded)');
    // A person rolled it back first: nothing is left to guard, and its message already says by whom.
    if (change.rolledBackBy) {
      await store.moveGuard(
        held.changeId,
        this.owner,
        ['watching'],
        {
          state: 'held',
          reason: `rolled back by change ${change.rolledBackBy} before its guard saw trouble`,
          endedAt: now,
        },
        now,
      );
      return;
    }
    if (now >= held.windowEnd) return this.windowPassed(held, change, now);
    const { seen, watched } = await sightings(this.o.source, touchedBy(change.undo));
    const trouble: Record<string, number> = {};
    const due: Sighting[] = [];
    for (const s of seen) {
      const since = held.trouble?.[s.key] ?? now;
      trouble[s.key] = since;
      if (s.now || now - since >= this.o.settleMs) due.push(s);
    }
    // Trouble no longer seen is forgotten: a blip shorter than the settle time triggers nothing.
    await store.noteGuardTrouble(held.changeId, this.owner, { trouble, touched: watched }, now);
    if (due.length === 0) return;
    const trigger = due.map((s) => s.seen).join('; ');
    const moving = await store.moveGuard(
      held.changeId,
      this.owner,
      ['watching'],
      { state: 'rolling_back', trigger },
      now,
    );
    if (moving) await this.rollBack(moving, change, trigger);
  }

  /** The window ended with no trigger. */
  private async windowPassed(held: GuardRecord, change: Change, now: number): Promise<void> {
    const ended = await this.o.store.moveGuard(
      held.changeId,
      this.owner,
      ['watching'],
      { state: 'passed', endedAt: now },
      now,
    );
    if (ended) await this.o.engine.endGuard(change.id, { state: 'passed', withinMs: held.withinMs });
  }

  /** Rolls the change back (or finds it could not be) and ends the guard; an unsettled apply is looked at again next pass. */
  private async rollBack(held: GuardRecord, change: Change, trigger: string): Promise<void> {
    const r = await this.o.engine.rollbackByGuard(change, trigger);
    if (r.kind === 'unsettled') return;
    const now = this.o.clock.now();
    const rollbackId = r.rollback?.id;
    if (r.kind === 'rolled_back') {
      const ended = await this.o.store.moveGuard(
        held.changeId,
        this.owner,
        ['rolling_back'],
        { state: 'rolled_back', rollbackId: r.rollback.id, endedAt: now },
        now,
      );
      if (ended)
        await this.o.engine.endGuard(
          change.id,
          {
            state: 'rolled_back',
            withinMs: held.withinMs,
            trigger,
            rollbackId: r.rollback.id,
            rule: held.rule,
          },
          r.rollback,
        );
      return;
    }
    const ended = await this.o.store.moveGuard(
      held.changeId,
      this.owner,
      ['rolling_back'],
      { state: 'held', reason: r.reason, endedAt: now, ...(rollbackId ? { rollbackId } : {}) },
      now,
    );
    if (ended)
      await this.o.engine.endGuard(
        change.id,
        {
          state: 'held',
          withinMs: held.withinMs,
          trigger,
          reason: r.reason,
          ...(rollbackId ? { rollbackId } : {}),
        },
        r.rollback,
      );
  }
}
