/**
 * A typed list of listeners, injected where events happen so the emitter
 * needs to know nothing of who listens (the change engine and the tail
 * service announce changes to a release; the Slack layer redraws). An
 * emitter either waits for what the event causes (`emit`: a click answered
 * once its message is drawn) or does not (`post`: housekeeping's clocks must
 * not run at the pace a listener's Slack calls take).
 */
import { type Logger, silentLogger } from './logger.js';

/** Told of one event; may be async. */
type Listener<T> = (event: T) => void | Promise<void>;

/** Listeners of one kind of event. */
export class Events<T> {
  private readonly listeners = new Set<Listener<T>>();
  /** What `post` set off and has not ended yet. */
  private readonly posted = new Set<Promise<void>>();

  constructor(private readonly logger: Logger = silentLogger) {}

  /** Adds `listener`; returns the function that removes it. */
  on(listener: Listener<T>): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Whether anyone listens here (an event nobody here hears is left to the other replicas). */
  listening(): boolean {
    return this.listeners.size > 0;
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

  /**
   * Tells every listener without waiting for them: the emitter goes on at
   * once. Each listener is called before this returns (and runs up to its
   * first wait), so what listeners queue is queued in the order events were
   * posted. A failing listener is logged, as with `emit`; `settled` resolves
   * once all of it has ended.
   */
  post(event: T): void {
    for (const listener of [...this.listeners]) {
      const told = (async () => listener(event))()
        .catch((error: unknown) => this.logger.warn('an event listener failed', { error }))
        .finally(() => this.posted.delete(told));
      this.posted.add(told);
    }
  }

  /** Resolves when everything posted so far (and posted meanwhile) has ended. */
  async settled(): Promise<void> {
    while (this.posted.size > 0) await Promise.all([...this.posted]);
  }
}

/** "What a release shows has changed": a change or a live tail of the release moved. */
export interface ReleaseContentChanged {
  releaseId: string;
}

/** Where the change engine and the tail service announce changes to releases. */
export type ReleaseEvents = Events<ReleaseContentChanged>;
