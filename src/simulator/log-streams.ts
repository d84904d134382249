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

  register(stream: OpenStream): void {
    const k = key(stream.env, stream.vessel);
    let set = this.open.get(k);
    if (!set) {
      set = new Set();
      this.open.set(k, set);
    }
    set.add(stream);
  }

  unregister(stream: OpenStream): void {
    const k = key(stream.env, stream.vessel);
    const set = this.open.get(k);
    set?.delete(stream);
    if (set?.size === 0) this.open.delete(k);
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
