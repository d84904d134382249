/**
 * What the shared store contract needs from each implementation's test file:
 * a fresh store per test, a second store on the same database (standing in
 * for another replica), and raw SQL access to check what the API cannot show.
 */

import type { ChangeRecord, Store } from '../../../src/store/types.js';

export interface StoreHarness {
  store: Store;
  /** Opens another store on the same database (its own connection(s)); closed by cleanup. */
  openPeer(): Promise<Store>;
  /** Runs raw SQL, bypassing the Store API. */
  exec(sql: string): Promise<void>;
  /** Reads rows with raw SQL. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** Closes every store it opened and removes the database/schema. */
  cleanup(): Promise<void>;
}

export type HarnessFactory = () => Promise<StoreHarness>;
/** Gives a contract section the harness of the running test. */
export type HarnessRef = () => StoreHarness;

export const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
export const MINUTE = 60_000;

let counter = 0;
/** A fresh id, unique within this test run. */
export function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** A pending change with nested JSON, overridable field by field. */
export function newChange(
  overrides: Partial<Omit<ChangeRecord, 'version'>> = {},
): Omit<ChangeRecord, 'version'> {
  return {
    id: nextId('chg'),
    operation: 'promote-image',
    request: { image: 'game', tag: '1.2.3', from: 'dev', to: 'prod' },
    preview: { image: 'game-internal-42', targetHasTag: false },
    requester: 'U_REQ',
    origin: { workspace: 'T1', channel: 'C1', threadTs: '1700000000.000100' },
    status: 'pending',
    createdAt: T0,
    updatedAt: T0,
    expiresAt: T0 + 15 * MINUTE,
    ...overrides,
  };
}
