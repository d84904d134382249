/**
 * The watch loop of one replica. Every replica runs it; for each watched
 * environment the replica holding the lease `watch:<env>` in the store polls
 * it, so there is one poller per environment for the whole deployment. The
 * holder renews the lease each tick; when it dies the lease lapses and the
 * next replica to tick takes it: a takeover within the lease time plus one
 * tick. The poll claim in the store (pollEnvironment) keeps the API load at
 * one listing per interval even across a takeover or a paused holder.
 */

import type { LeaseStore } from '../store/types.js';
import { type PollDeps, type PollOutcome, pollEnvironment } from './poll.js';

export interface WatcherDeps extends PollDeps {
  store: PollDeps['store'] & LeaseStore;
}

/** The lease key of an environment's poller. */
export const pollerLease = (env: string): string => `watch:${env}`;

export class Watcher {
  private readonly held = new Set<string>();
  private readonly abort = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(private readonly deps: WatcherDeps) {}

  /** How long a poller's lease lasts: two intervals, so one slow poll does not lose it. */
  get leaseMs(): number {
    return 2 * this.deps.intervalMs;
  }

  /** How often the replica looks: a third of the interval, so a takeover is at most lease + tick. */
  get tickMs(): number {
    return Math.max(1000, Math.floor(this.deps.intervalMs / 3));
  }

  /** One tick: take or keep the lease of each watched environment and poll those held. */
  async tick(): Promise<Map<string, PollOutcome>> {
    const { store, clock } = this.deps;
    const outcomes = new Map<string, PollOutcome>();
    const envs = await store.watchedEnvironments();
    for (const env of [...this.held]) {
      if (!envs.includes(env)) {
        await store.releaseLease(pollerLease(env), this.deps.replica);
        this.held.delete(env);
      }
    }
    for (const env of envs) {
      const now = clock.now();
      const mine = this.held.has(env)
        ? await store.renewLease(pollerLease(env), this.deps.replica, this.leaseMs, now)
        : await store.acquireLease(pollerLease(env), this.deps.replica, this.leaseMs, now);
      if (!mine) {
        this.held.delete(env);
        continue;
      }
      this.held.add(env);
      outcomes.set(env, await pollEnvironment(this.deps, env, now));
    }
    return outcomes;
  }

  /** The environments this replica polls now. */
  holding(): string[] {
    return [...this.held].sort();
  }

  /** Starts ticking until stop(). */
  start(): void {
    if (this.loop) return;
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    const { clock, logger } = this.deps;
    while (!this.abort.signal.aborted) {
      try {
        await this.tick();
      } catch (err) {
        // The store or Slack failed this tick; the next one tries again, and the lease lapses if this goes on.
        logger.warn('watch tick failed', { error: (err as Error).message });
      }
      try {
        await clock.sleep(this.tickMs, this.abort.signal);
      } catch {
        return;
      }
    }
  }

  /** Stops ticking and hands the leases back, so another replica takes over at once. */
  async stop(): Promise<void> {
    this.abort.abort(new Error('watcher stopped'));
    await this.loop;
    for (const env of this.held) await this.deps.store.releaseLease(pollerLease(env), this.deps.replica);
    this.held.clear();
  }
}
