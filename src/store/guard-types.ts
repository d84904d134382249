/**
 * Guards as the store keeps them (issue 42): one row per guarded change,
 * from its apply until its window ends. The row holds its own lease (owner
 * and until when), so exactly one replica watches a guard at a time and
 * another takes it over once a dead holder's lease lapses.
 */

/** Where a guard stands: watching its window, rolling its change back, or ended one of three ways. */
export const GUARD_STATES = ['watching', 'rolling_back', 'passed', 'rolled_back', 'held'] as const;
export type GuardState = (typeof GUARD_STATES)[number];

/** One guarded change. */
export interface GuardRecord {
  changeId: string;
  /** The policy rule that set the guard (the automatic rollback acts on its behalf). */
  rule: string;
  withinMs: number;
  /** When the window ends: its apply plus `withinMs`. */
  windowEnd: number;
  state: GuardState;
  /** Who watches it, and until when that holds without a renewal. */
  owner?: string;
  leaseUntil?: number;
  /** Trouble seen and since when (object key -> epoch ms), so a takeover keeps the settle clock. */
  trouble?: Record<string, number>;
  /** The objects it watches, as `<env>|<Kind>|<name>` (an alert on one of them links to the rollback). */
  touched?: string[];
  /** What the trigger saw, in words. */
  trigger?: string;
  /** The rollback change it made. */
  rollbackId?: string;
  /** Why it did not roll back (the target moved), in words. */
  reason?: string;
  createdAt: number;
  endedAt?: number;
}

/** What ends (or moves) a guard. */
export interface GuardPatch {
  state: GuardState;
  trigger?: string;
  rollbackId?: string;
  reason?: string;
  endedAt?: number;
}

export interface GuardStore {
  /** Stores a new guard (watching); a second call for the same change does nothing. */
  createGuard(
    g: Pick<GuardRecord, 'changeId' | 'rule' | 'withinMs' | 'windowEnd' | 'createdAt'>,
  ): Promise<void>;
  getGuard(changeId: string): Promise<GuardRecord | undefined>;
  /** Guards still owed their end (watching or rolling back), oldest first. */
  listOpenGuards(limit: number): Promise<GuardRecord[]>;
  /**
   * Takes or renews the lease of an open guard for `owner` until `now + ttlMs`:
   * the row when `owner` holds it now, undefined when another holder's lease is live.
   */
  leaseGuard(changeId: string, owner: string, ttlMs: number, now: number): Promise<GuardRecord | undefined>;
  /** Records the trouble seen and the objects watched, if `owner` still holds the guard at `now`; false when it does not. */
  noteGuardTrouble(
    changeId: string,
    owner: string,
    seen: { trouble: Record<string, number>; touched: string[] },
    now: number,
  ): Promise<boolean>;
  /** Guards that rolled their change back and ended at or after `since`, newest first. */
  listRolledBackGuards(since: number, limit: number): Promise<GuardRecord[]>;
  /** Moves a guard held by `owner` at `now` from one of `from` as `patch` says; undefined when it was not its to move. */
  moveGuard(
    changeId: string,
    owner: string,
    from: readonly GuardState[],
    patch: GuardPatch,
    now: number,
  ): Promise<GuardRecord | undefined>;
}
