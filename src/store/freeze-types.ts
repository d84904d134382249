/** Freezes as the store keeps them (issue 41): one row per `/harbor freeze`, ended by unfreeze, a later freeze or its `until`. */

/** A freeze someone put on an environment. */
export interface FreezeRecord {
  id: string;
  env: string;
  createdBy: string;
  createdAt: number;
  /** When it ends by itself (epoch ms); absent: it lasts until someone unfreezes. */
  until?: number;
  reason?: string;
  /** Where it was put: the Slack workspace and channel. */
  workspace: string;
  channel: string;
  /** When it was ended before its `until` (unfreeze, or a later freeze that replaced it), and by whom. */
  endedAt?: number;
  endedBy?: string;
}

export interface FreezeStore {
  /**
   * Stores `freeze` and ends the freezes of its environment still in force
   * at its `createdAt` (it replaces them); returns those it ended.
   */
  addFreeze(freeze: Omit<FreezeRecord, 'endedAt' | 'endedBy'>): Promise<FreezeRecord[]>;
  /** Ends every freeze of `env` in force at `now`, by `by`; returns those it ended (none: nothing was frozen). */
  endFreezes(env: string, by: string, now: number): Promise<FreezeRecord[]>;
  /** The freezes in force at `now` (of `env` only, when given), oldest first. */
  listFreezes(filter: { now: number; env?: string }): Promise<FreezeRecord[]>;
}
