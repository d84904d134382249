/**
 * The contract every Store implementation must meet. Each implementation's
 * test file calls runStoreContract with a factory; every test gets a fresh,
 * empty database from it and the factory's cleanup runs afterwards.
 */

import { afterEach, beforeEach } from '@jest/globals';
import { approvalsAuditContract } from './contract/approvals-audit.js';
import { changeContract } from './contract/changes.js';
import { freezesContract } from './contract/freezes.js';
import { guardsContract } from './contract/guards.js';
import type { HarnessFactory, StoreHarness } from './contract/harness.js';
import { leasesMigrateContract } from './contract/leases-migrate.js';
import { releasesTailsContract } from './contract/releases-tails.js';
import { slackBudgetContract } from './contract/slack-budget.js';
import { homeViewersContract, viewsContract } from './contract/views.js';
import { watchesContract } from './contract/watches.js';

export type { HarnessFactory, StoreHarness } from './contract/harness.js';

/** Registers the whole contract inside the caller's describe block. */
export function runStoreContract(factory: HarnessFactory): void {
  let current: StoreHarness | undefined;
  const harness = (): StoreHarness => {
    if (!current) throw new Error('store harness used outside a test');
    return current;
  };

  beforeEach(async () => {
    current = await factory();
  });

  afterEach(async () => {
    const done = current;
    current = undefined;
    await done?.cleanup();
  });

  changeContract(harness);
  approvalsAuditContract(harness);
  releasesTailsContract(harness);
  leasesMigrateContract(harness);
  viewsContract(harness);
  homeViewersContract(harness);
  slackBudgetContract(harness);
  watchesContract(harness);
  freezesContract(harness);
  guardsContract(harness);
}
