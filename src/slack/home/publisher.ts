/**
 * Publishes Home tabs within Slack's limits: one `views.publish` per person
 * at a time, and requests that arrive while one is under way fold into a
 * single redraw after it, with the state read then. A burst of changes thus
 * costs a person at most two publishes, the second showing the latest state.
 * Who has opened a Home tab lately is kept in the store (`viewers`), so the
 * replica that handles an action redraws the tabs opened through another.
 */
import type { HomeView } from '@slack/types';
import type { Logger } from '../../runtime/logger.js';

interface HomePublisherOptions {
  /** Reads and renders the Home tab of `user` in workspace `team`. */
  draw(user: string, team: string): Promise<HomeView>;
  /** Sends the view (views.publish). */
  publish(user: string, view: HomeView): Promise<void>;
  /** Who opened their Home tab lately, shared by every replica (store/home-viewer-store.ts). */
  viewers: {
    note(team: string, user: string): Promise<void>;
    list(team: string): Promise<string[]>;
  };
  logger: Logger;
}

/** Coalescing Home tab publisher, one chain per person. */
export class HomePublisher {
  /** Per person: the publish under way and whether another was asked for meanwhile. */
  private readonly running = new Map<string, { again: boolean; done: Promise<void> }>();

  constructor(private readonly o: HomePublisherOptions) {}

  /** Asks for `user`'s Home tab to be redrawn; resolves once a publish started after this call has finished. */
  refresh(user: string, team: string): Promise<void> {
    const current = this.running.get(user);
    if (current) {
      current.again = true;
      return current.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = this.loop(user, team, entry);
    this.running.set(user, entry);
    return entry.done;
  }

  /** `user` opened their Home tab: draws it, and keeps it fresh for a while (on whichever replica acts). */
  async opened(user: string, team: string): Promise<void> {
    await this.o.viewers.note(team, user).catch((err: unknown) => {
      // Only later redraws are lost: the tab is still drawn now, and the next visit notes it again.
      this.o.logger.warn('could not note an opened Home tab', { user, error: err });
    });
    return this.refresh(user, team);
  }

  /**
   * Something in workspace `team` may have moved (someone acted): redraws the
   * Home tab of everyone there who opened theirs lately. Per person coalesced,
   * so a burst of actions costs each at most two publishes.
   */
  async stale(team: string): Promise<void> {
    const viewers = await this.o.viewers.list(team).catch((err: unknown) => {
      this.o.logger.warn('could not read who has a Home tab open', { team, error: err });
      return [];
    });
    await Promise.all(viewers.map((user) => this.refresh(user, team)));
  }

  /** Resolves when no publish is under way. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((e) => e.done));
  }

  private async loop(user: string, team: string, entry: { again: boolean }): Promise<void> {
    try {
      do {
        entry.again = false;
        try {
          await this.o.publish(user, await this.o.draw(user, team));
        } catch (err) {
          // Nobody is waiting on a Home tab: the next change or visit redraws it.
          this.o.logger.warn('could not publish a Home tab', { user, error: err });
        }
      } while (entry.again);
    } finally {
      this.running.delete(user);
    }
  }
}
