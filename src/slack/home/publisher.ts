/**
 * Publishes Home tabs within Slack's limits: one `views.publish` per person
 * at a time, and requests that arrive while one is under way fold into a
 * single redraw after it, with the state read then. A burst of changes thus
 * costs a person at most two publishes, the second showing the latest state.
 * Who has opened a Home tab lately is kept in the store (`viewers`), so the
 * replica that handles an action redraws the tabs opened through another.
 * A click on the Home tab is answered there: a notice on top of the person's
 * tab, kept through the redraws that follow for a little while.
 */
import type { HomeView } from '@slack/types';
import type { Logger } from '../../runtime/logger.js';

/** A notice on top of one person's Home tab, shown until `until` (ms). */
interface Notice {
  text: string;
  until: number;
}

/**
 * How long a notice stays on a Home tab: long enough to be read after the
 * redraws the click itself causes, short enough not to linger as news.
 */
export const HOME_NOTICE_MS = 2 * 60_000;

interface HomePublisherOptions {
  /** Reads and renders the Home tab of `user` in workspace `team`, with `notice` on top when given. */
  draw(user: string, team: string, notice?: string): Promise<HomeView>;
  /** Sends the view (views.publish) of `user` in workspace `team`. */
  publish(user: string, view: HomeView, team: string): Promise<void>;
  /** Who opened their Home tab lately, shared by every replica (store/home-viewer-store.ts). */
  viewers: {
    note(team: string, user: string): Promise<void>;
    list(team: string): Promise<string[]>;
  };
  logger: Logger;
  /** Epoch ms, for how long notices stay. */
  now(): number;
  /**
   * Waits for a `views.publish` slot of workspace `team` (the shared Slack
   * budget's gate for the method, paused by a 429 on any replica). Taken
   * before the state is read, so what is drawn is the newest there is.
   */
  slot(team: string): Promise<void>;
  /** Runs one batch of redraws (everyone's tab after an action), so each group's members are read once. */
  batch<T>(fn: () => Promise<T>): Promise<T>;
}

/** Coalescing Home tab publisher, one chain per person. */
export class HomePublisher {
  /** Per person: the publish under way and whether another was asked for meanwhile. */
  private readonly running = new Map<string, { again: boolean; done: Promise<void> }>();
  /** Per person: the notice their Home tab shows on top (one at a time, the newest). */
  private readonly notices = new Map<string, Notice>();

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

  /** Shows `text` on top of `user`'s Home tab for HOME_NOTICE_MS; resolves once it is drawn. */
  notify(user: string, team: string, text: string): Promise<void> {
    this.notices.set(user, { text, until: this.o.now() + HOME_NOTICE_MS });
    return this.refresh(user, team);
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
    await this.o.batch(() => Promise.all(viewers.map((user) => this.refresh(user, team))));
  }

  /** Resolves when no publish is under way. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((e) => e.done));
  }

  private noticeOf(user: string): string | undefined {
    const notice = this.notices.get(user);
    if (notice && notice.until > this.o.now()) return notice.text;
    this.notices.delete(user);
    return undefined;
  }

  private async loop(user: string, team: string, entry: { again: boolean }): Promise<void> {
    try {
      do {
        try {
          // The slot first, then the state: redraws asked for while this one waited fold into it.
          await this.o.slot(team);
          entry.again = false;
          await this.o.publish(user, await this.o.draw(user, team, this.noticeOf(user)), team);
        } catch (err) {
          // Nobody is waiting on a Home tab: the next change or visit redraws it.
          entry.again = false;
          this.o.logger.warn('could not publish a Home tab', { user, error: err });
        }
      } while (entry.again);
    } finally {
      this.running.delete(user);
    }
  }
}
