/**
 * The open `follow=true` log streams, by Vessel: lines pushed with
 * emitLogLines reach every stream of that Vessel container, and a Vessel
 * that is gone ends its streams.
 */

/** One open follow stream, as the registry sees it. */
export interface OpenStream {
  env: string;
  vessel: string;
  container: string;
  /** Writes lines to the client (after any cut-off rule). */
  deliver(lines: readonly string[]): void;
  /** Ends the response cleanly (the Vessel is gone or the simulator stops). */
  end(): void;
}

function key(env: string, vessel: string): string {
  return `${env}/${vessel}`;
}

/** Registry of open follow streams, keyed by environment and Vessel. */
export class LogStreams {
  private readonly open = new Map<string, Set<OpenStream>>();
  private waiters: { count: number; resolve: () => void }[] = [];

  register(stream: OpenStream): void {
    const k = key(stream.env, stream.vessel);
    let set = this.open.get(k);
    if (!set) {
      set = new Set();
      this.open.set(k, set);
    }
    set.add(stream);
    this.countChanged();
  }

  unregister(stream: OpenStream): void {
    const k = key(stream.env, stream.vessel);
    const set = this.open.get(k);
    set?.delete(stream);
    if (set?.size === 0) this.open.delete(k);
    this.countChanged();
  }

  /** Resolves once exactly `count` streams are open (lets tests wait on the event, not on turns). */
  whenCount(count: number): Promise<void> {
    if (this.count === count) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.waiters.push({ count, resolve });
    });
  }

  private countChanged(): void {
    const now = this.count;
    const ready = this.waiters.filter((w) => w.count === now);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.count !== now);
    for (const w of ready) w.resolve();
  }

  /** Sends lines to the streams following that Vessel container. */
  emit(env: string, vessel: string, container: string, lines: readonly string[]): void {
    for (const stream of [...(this.open.get(key(env, vessel)) ?? [])]) {
      if (stream.container === container) stream.deliver(lines);
    }
  }

  /** Ends every stream of a Vessel that is gone. */
  vesselGone(env: string, vessel: string): void {
    for (const stream of [...(this.open.get(key(env, vessel)) ?? [])]) stream.end();
  }

  /** Ends every stream (simulator shutdown). */
  closeAll(): void {
    for (const set of [...this.open.values()]) for (const stream of [...set]) stream.end();
  }

  /** How many streams are open. */
  get count(): number {
    let n = 0;
    for (const set of this.open.values()) n += set.size;
    return n;
  }
}
