/**
 * The live tails' message budget as Prometheus sees it: slots granted,
 * tails waiting for one, and whether Slack paused a method with a 429. Read
 * from the budgets at each scrape, so nothing has to push numbers.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** One workspace's budget numbers (the shape of the tails' BudgetStats that metrics need). */
export interface BudgetSnapshot {
  workspace: string;
  grantedByMethod: Record<string, number>;
  waiting: Record<string, number>;
  /** Until when (epoch ms) a 429 paused each method; absent when not paused. */
  pausedUntil: Partial<Record<string, number>>;
  /** The budget clock's now, for the seconds a pause has left. */
  now: number;
}

export type BudgetSource = () => readonly BudgetSnapshot[];

/** Registers the budget's metrics on `registry`, read from `source` at each scrape. */
export function registerTailBudgetMetrics(registry: Registry, source: BudgetSource): void {
  const registers = [registry];
  const labelNames = ['workspace', 'method'] as const;
  new Counter({
    name: 'harbor_tail_budget_granted_total',
    help: 'Slack message slots the live tails budget granted, by workspace and method',
    labelNames,
    registers,
    collect() {
      // The budget counts; the counter mirrors it (a fresh budget starts at zero, like a restart).
      this.reset();
      for (const b of source())
        for (const [method, n] of Object.entries(b.grantedByMethod))
          this.inc({ workspace: b.workspace, method }, n);
    },
  });
  new Gauge({
    name: 'harbor_tail_budget_waiting',
    help: 'Live tail updates waiting for a slot of the budget now, by workspace and method',
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const b of source())
        for (const [method, n] of Object.entries(b.waiting)) this.set({ workspace: b.workspace, method }, n);
    },
  });
  new Gauge({
    name: 'harbor_tail_budget_paused',
    help: 'Whether Slack rate-limited (429) a method, pausing it for every tail of the workspace (1) or not (0)',
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const b of source())
        for (const method of Object.keys(b.waiting))
          this.set({ workspace: b.workspace, method }, b.pausedUntil[method] !== undefined ? 1 : 0);
    },
  });
  new Gauge({
    name: 'harbor_tail_budget_paused_seconds',
    help: "Seconds left of a method's 429 pause (0 when not paused), by workspace and method",
    labelNames,
    registers,
    collect() {
      this.reset();
      for (const b of source())
        for (const method of Object.keys(b.waiting)) {
          const until = b.pausedUntil[method];
          this.set(
            { workspace: b.workspace, method },
            until === undefined ? 0 : Math.max(0, until - b.now) / 1000,
          );
        }
    },
  });
}
