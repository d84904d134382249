/**
 * Bounded shutdown. On SIGTERM the bot stops taking requests and lets work in
 * flight finish, but only up to a deadline: a hung dependency (a database that
 * stopped answering) must not keep the process alive past its orchestrator's
 * grace period, when it would be SIGKILLed without a word. Past the deadline
 * the caller exits non-zero, naming the work that was left.
 */

type ShutdownOutcome =
  | { kind: 'stopped' }
  | { kind: 'deadline'; left: string[] }
  | { kind: 'failed'; error: unknown; left: string[] };

interface Stoppable {
  stop(): Promise<void>;
  inFlight(): string[];
}

/** Stops `running`, or gives up when `deadline` resolves first (a timer in production, a latch in tests). */
export async function stopWithin(running: Stoppable, deadline: Promise<void>): Promise<ShutdownOutcome> {
  const stopped = running.stop().then(
    (): ShutdownOutcome => ({ kind: 'stopped' }),
    (error: unknown): ShutdownOutcome => ({ kind: 'failed', error, left: running.inFlight() }),
  );
  const late = deadline.then((): ShutdownOutcome => ({ kind: 'deadline', left: running.inFlight() }));
  return Promise.race([stopped, late]);
}

/** A deadline `ms` from now that does not keep the process alive by itself. */
export function deadlineIn(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
