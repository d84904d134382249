/**
 * A typed list of listeners, injected where events happen so the emitter
 * needs to know nothing of who listens (the change engine and the tail
 * service announce changes to a release; the Slack layer redraws).
 */
import { type Logger, silentLogger } from './logger.js';

/** Told of one event; may be async. */
type Listener<T> = (event: T) => void | Promise<void>;

/** Listeners of one kind of event. */
export class Events<T> {
  private readonly listeners = new Set<Listener<T>>();

  constructor(private readonly logger: Logger = silentLogger) {}

  /** Adds `listener`; returns the function that removes it. */
  on(listener: Listener<T>): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Tells every listener, one after the other, and resolves when all are done:
   * the emitter's caller finishes after what the event causes (a redraw), as
   * it did when it made the call itself. A failing listener is logged and
   * never fails the emitter, whose own work is already done.
   */
  async emit(event: T): Promise<void> {
    for (const listener of [...this.listeners]) {
      try {
        await listener(event);
      } catch (error) {
        this.logger.warn('an event listener failed', { error });
      }
    }
  }
}

/** "What a release shows has changed": a change or a live tail of the release moved. */
export interface ReleaseContentChanged {
  releaseId: string;
}

/** Where the change engine and the tail service announce changes to releases. */
export type ReleaseEvents = Events<ReleaseContentChanged>;
