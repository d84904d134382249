/**
 * Modals the stand-in has open: ids, hashes and trigger ids behave as on
 * Slack, so a bot that reuses a trigger, updates a stale hash or loses a
 * view id fails here the way it would in production.
 */
import { TEST_BOT, TEST_TEAM } from './identity.js';
import type { StandInClock } from './rate-limits.js';

/** A trigger id works once, within 3 seconds of the interaction that issued it. */
const TRIGGER_TTL_MS = 3000;

/** A view as Slack returns it from views.open/update/push (and sends in view payloads). */
export interface StoredView {
  id: string;
  team_id: string;
  type: string;
  title?: unknown;
  submit?: unknown;
  close?: unknown;
  blocks: unknown[];
  private_metadata: string;
  callback_id: string;
  external_id: string;
  state: { values: Record<string, Record<string, unknown>> };
  hash: string;
  clear_on_close: boolean;
  notify_on_close: boolean;
  root_view_id: string;
  previous_view_id: string | null;
  app_id: string;
  app_installed_team_id: string;
  bot_id: string;
}

type ViewRef = { viewId?: string; externalId?: string };

/** Open views by id, trigger bookkeeping, and every version each view went through. */
export class ViewStore {
  private views = new Map<string, StoredView>();
  private versions = new Map<string, StoredView[]>();
  private triggers = new Map<string, { issuedAt: number; viewId?: string; user?: string }>();
  private usedTriggers = new Set<string>();
  /** Who each view was opened for (from the trigger's interaction), and which were closed. */
  private owners = new Map<string, string>();
  private closed = new Set<string>();
  /** Each person's Home tab, by user id. */
  private homes = new Map<string, StoredView>();
  private counter = 0;

  constructor(private readonly clock: StandInClock) {}

  /**
   * A trigger id as an interaction would carry, valid for 3 s of this clock.
   * Pass the view the interaction happened in so views.push stacks on it, and
   * the user who acted so the modal opens in front of them.
   */
  issueTrigger(viewId?: string, user?: string): string {
    this.counter += 1;
    const id = `${1000 + this.counter}.${Math.floor(this.clock.now() / 1000)}.${hex(this.counter, 16)}`;
    this.triggers.set(id, {
      issuedAt: this.clock.now(),
      ...(viewId ? { viewId } : {}),
      ...(user ? { user } : {}),
    });
    return id;
  }

  /** The user a trigger id was issued to, if known. */
  triggerUser(triggerId: string): string | undefined {
    return this.triggers.get(triggerId)?.user;
  }

  /** Records who a view was opened for (the trigger's user). */
  setOwner(viewId: string, user: string): void {
    this.owners.set(viewId, user);
  }

  /** Closes a view (the person closed it, or a submission closed it); later updates fail `not_found`. */
  close(viewId: string): void {
    this.closed.add(viewId);
  }

  /** The modals open in front of `user`, bottom of the stack first. */
  openFor(user: string): StoredView[] {
    return [...this.views.values()].filter((v) => this.owners.get(v.id) === user && !this.closed.has(v.id));
  }

  /** The view a trigger id was issued from, if any. */
  triggerView(triggerId: string): StoredView | undefined {
    const viewId = this.triggers.get(triggerId)?.viewId;
    return viewId ? this.views.get(viewId) : undefined;
  }

  /** Spends a trigger id; the Slack error code when it cannot be used. Unknown ids are accepted once. */
  useTrigger(triggerId: string | undefined): string | undefined {
    if (!triggerId) return 'invalid_arguments';
    if (this.usedTriggers.has(triggerId)) return 'exchanged_trigger_id';
    const issued = this.triggers.get(triggerId);
    if (issued && this.clock.now() - issued.issuedAt > TRIGGER_TTL_MS) return 'expired_trigger_id';
    this.usedTriggers.add(triggerId);
    return undefined;
  }

  /** Opens a view (views.open, or views.push on top of `parent`); the error code on a clash. */
  open(view: Record<string, unknown>, parent?: StoredView): StoredView | string {
    const externalId = typeof view.external_id === 'string' ? view.external_id : '';
    if (externalId && this.find({ externalId })) return 'duplicate_external_id';
    this.counter += 1;
    const id = `V${hex(this.counter, 10).toUpperCase()}`;
    const stored = this.build(id, view, {
      externalId,
      rootViewId: parent ? parent.root_view_id : id,
      previousViewId: parent ? parent.id : null,
    });
    this.views.set(id, stored);
    this.versions.set(id, [stored]);
    return stored;
  }

  /**
   * Publishes a person's Home tab (views.publish): one view per person, kept
   * under the same id across publishes, as Slack does; `hash` guards against
   * overwriting a newer publish.
   */
  publish(user: string, view: Record<string, unknown>, hash?: string): StoredView | string {
    const current = this.homes.get(user);
    if (current && hash && hash !== current.hash) return 'hash_conflict';
    this.counter += 1;
    const id = current?.id ?? `V${hex(this.counter, 10).toUpperCase()}`;
    const stored = this.build(id, view, { externalId: '', rootViewId: id, previousViewId: null });
    this.homes.set(user, stored);
    return stored;
  }

  /** A Home tab by its view id (clicks in it name the view). */
  homeById(viewId: string): StoredView | undefined {
    return [...this.homes.values()].find((v) => v.id === viewId);
  }

  /** The Home tab last published for `user`. */
  home(user: string): StoredView | undefined {
    return this.homes.get(user);
  }

  /** Replaces a view's content (views.update); the error code when missing or the hash is stale. */
  update(ref: ViewRef, view: Record<string, unknown>, hash?: string): StoredView | string {
    const current = this.find(ref);
    if (!current || this.closed.has(current.id)) return 'not_found';
    if (hash !== undefined && hash !== current.hash) return 'hash_conflict';
    const externalId = typeof view.external_id === 'string' ? view.external_id : current.external_id;
    const next = this.build(current.id, view, {
      externalId,
      rootViewId: current.root_view_id,
      previousViewId: current.previous_view_id,
    });
    this.views.set(current.id, next);
    this.versions.get(current.id)?.push(next);
    return next;
  }

  /** The latest version of a view by id or external id. */
  find(ref: ViewRef): StoredView | undefined {
    if (ref.viewId) return this.views.get(ref.viewId);
    if (ref.externalId) return [...this.views.values()].find((v) => v.external_id === ref.externalId);
    return undefined;
  }

  /** Every version of a view, oldest first. */
  history(viewId: string): StoredView[] {
    return [...(this.versions.get(viewId) ?? [])];
  }

  private build(
    id: string,
    view: Record<string, unknown>,
    links: { externalId: string; rootViewId: string; previousViewId: string | null },
  ): StoredView {
    this.counter += 1;
    return {
      id,
      team_id: TEST_TEAM.id,
      type: String(view.type),
      ...(view.title !== undefined ? { title: view.title } : {}),
      ...(view.submit !== undefined ? { submit: view.submit } : {}),
      ...(view.close !== undefined ? { close: view.close } : {}),
      blocks: Array.isArray(view.blocks) ? view.blocks : [],
      private_metadata: typeof view.private_metadata === 'string' ? view.private_metadata : '',
      callback_id: typeof view.callback_id === 'string' ? view.callback_id : '',
      external_id: links.externalId,
      state: { values: {} },
      hash: `${Math.floor(this.clock.now() / 1000)}.${hex(this.counter, 8)}`,
      clear_on_close: view.clear_on_close === true,
      notify_on_close: view.notify_on_close === true,
      root_view_id: links.rootViewId,
      previous_view_id: links.previousViewId,
      app_id: TEST_BOT.appId,
      app_installed_team_id: TEST_TEAM.id,
      bot_id: TEST_BOT.botId,
    };
  }
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}
