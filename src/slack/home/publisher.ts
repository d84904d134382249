/**
 * Publishes Home tabs within Slack's limits: one `views.publish` per person
 * at a time, and requests that arrive while one is under way fold into a
 * single redraw after it, with the state read then. A burst of changes thus
 * costs a person at most two publishes, the second showing the latest state.
 * Who has opened a Home tab is known per process only: it is a hint for
 * redraws, not state that matters (after a restart a visit draws the tab).
 */
import type { HomeView } from '@slack/types';
import type { Logger } from '../../runtime/logger.js';

interface HomePublisherOptions {
  /** Reads and renders the Home tab of `user` in workspace `team`. */
  draw(user: string, team: string): Promise<HomeView>;
  /** Sends the view (views.publish). */
  publish(user: string, view: HomeView): Promise<void>;
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

  /** Who has opened their Home tab, by workspace: whose tabs a change may have made stale. */
  private readonly viewers = new Map<string, Set<string>>();

  /** `user` opened their Home tab: draws it, and keeps it fresh from now on. */
  opened(user: string, team: string): Promise<void> {
    const inTeam = this.viewers.get(team) ?? new Set<string>();
    inTeam.add(user);
    this.viewers.set(team, inTeam);
    return this.refresh(user, team);
  }

  /**
   * Something in workspace `team` may have moved (someone acted): redraws the
   * Home tab of everyone there who has opened theirs. Per person coalesced, so
   * a burst of actions costs each at most two publishes.
   */
  stale(team: string): void {
    for (const user of this.viewers.get(team) ?? []) void this.refresh(user, team);
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
