/**
 * The whole Store on one SQL database: each concern (changes, approvals,
 * audit, releases, tails, leases, request keys, the shared Slack budget) is its own part written once
 * as SQL both SQLite and PostgreSQL accept; this class only puts the parts on
 * one connection for start-up. The subclasses run statements and migrate.
 */

import { SqlApprovalStore } from './approval-store.js';
import { SqlAuditStore } from './audit-store.js';
import { SqlChangeMessageStore } from './change-message-store.js';
import { SqlChangeStore } from './change-store.js';
import { SqlFreezeStore } from './freeze-store.js';
import type { FreezeStore } from './freeze-types.js';
import { SqlGuardStore } from './guard-store.js';
import type { GuardStore } from './guard-types.js';
import { SqlHomeViewerStore } from './home-viewer-store.js';
import { SqlLeaseStore } from './lease-store.js';
import { SqlOutboxStore } from './outbox-store.js';
import { SqlReleaseStore } from './release-store.js';
import { SqlRequestKeyStore } from './request-key-store.js';
import { type Row, rowDecoder } from './rows.js';
import { SqlSlackBudgetStore } from './slack-budget-store.js';
import type { Dialect, Query } from './sql.js';
import type { SqlRunner } from './sql-runner.js';
import { pingSql } from './store-health.js';
import { SqlTailStore } from './tail-store.js';
import type {
  ApprovalStore,
  AuditStore,
  ChangeMessageStore,
  ChangeStore,
  HomeViewerStore,
  LeaseStore,
  OutboxStore,
  ReleaseStore,
  RequestKeyStore,
  SlackBudgetStore,
  Store,
  TailStore,
  TransactionStore,
  ViewStore,
} from './types.js';
import { SqlViewStore } from './view-store.js';
import { SqlWatchStore } from './watch-store.js';
import type { WatchStore } from './watch-types.js';

export abstract class SqlStore implements Store {
  abstract readonly kind: 'sqlite' | 'postgres';
  private readonly runner: SqlRunner;
  private readonly changes: ChangeStore;
  private readonly approvals: ApprovalStore;
  private readonly audit: AuditStore;
  private readonly releases: ReleaseStore;
  private readonly tails: TailStore;
  private readonly leases: LeaseStore;
  private readonly requestKeys: RequestKeyStore;
  private readonly views: ViewStore;
  private readonly homeTabs: HomeViewerStore;
  private readonly slackBudget: SlackBudgetStore;
  private readonly watches: WatchStore;
  private readonly freezes: FreezeStore;
  private readonly guards: GuardStore;
  private readonly outbox: OutboxStore;
  private readonly changeMessageParts: ChangeMessageStore;

  constructor(dialect: Dialect) {
    this.runner = { dialect, decode: rowDecoder(dialect), rows: (query) => this.rows(query) };
    this.changes = new SqlChangeStore(this.runner);
    this.approvals = new SqlApprovalStore(this.runner);
    this.audit = new SqlAuditStore(this.runner);
    this.releases = new SqlReleaseStore(this.runner);
    this.tails = new SqlTailStore(this.runner);
    this.leases = new SqlLeaseStore(this.runner);
    this.requestKeys = new SqlRequestKeyStore(this.runner);
    this.views = new SqlViewStore(this.runner);
    this.homeTabs = new SqlHomeViewerStore(this.runner);
    this.slackBudget = new SqlSlackBudgetStore(this.runner);
    this.watches = new SqlWatchStore(this.runner);
    this.freezes = new SqlFreezeStore(this.runner);
    this.guards = new SqlGuardStore(this.runner);
    this.outbox = new SqlOutboxStore(this.runner);
    this.changeMessageParts = new SqlChangeMessageStore(this.runner);
  }

  abstract migrate(): Promise<void>;
  abstract close(): Promise<void>;
  /** Runs one statement; returns its rows (the RETURNING rows for writes, [] when none). */
  protected abstract rows(query: Query): Promise<Row[]>;
  /** Runs `work` in one transaction, its statements through the `rows` it is handed. */
  protected abstract inTransaction<T>(
    work: (rows: (query: Query) => Promise<Row[]>) => Promise<T>,
  ): Promise<T>;

  atomically<T>(work: (tx: TransactionStore) => Promise<T>): Promise<T> {
    return this.inTransaction((rows) => {
      const runner: SqlRunner = { dialect: this.runner.dialect, decode: this.runner.decode, rows };
      const changes = new SqlChangeStore(runner);
      const outbox = new SqlOutboxStore(runner);
      const approvals = new SqlApprovalStore(runner);
      const guards = new SqlGuardStore(runner);
      const tx: TransactionStore = {
        createChange: (c) => changes.createChange(c),
        getChange: (id) => changes.getChange(id),
        transitionChange: (id, from, to, patch, opts) => changes.transitionChange(id, from, to, patch, opts),
        listChanges: (filter) => changes.listChanges(filter),
        markFollowedUp: (id) => changes.markFollowedUp(id),
        expireChanges: (now) => changes.expireChanges(now),
        claimNotice: (id, notice, statuses, now) => changes.claimNotice(id, notice, statuses, now),
        releaseNotice: (id, notice) => changes.releaseNotice(id, notice),
        claimRollback: (id, by, now) => changes.claimRollback(id, by, now),
        releaseRollback: (id, by) => changes.releaseRollback(id, by),
        listApprovalsFor: (ids) => approvals.listApprovalsFor(ids),
        appendOutbox: (entry) => outbox.appendOutbox(entry),
        readOutbox: (after, limit) => outbox.readOutbox(after, limit),
        lastOutboxSeq: () => outbox.lastOutboxSeq(),
        claimOutbox: (subscriber, seq, ttlMs, now) => outbox.claimOutbox(subscriber, seq, ttlMs, now),
        pruneOutbox: (before, now) => outbox.pruneOutbox(before, now),
        createGuard: (g) => guards.createGuard(g),
      };
      return work(tx);
    });
  }

  ping(): Promise<void> {
    return pingSql(this.runner);
  }

  // changes
  createChange: ChangeStore['createChange'] = (c) => this.changes.createChange(c);
  getChange: ChangeStore['getChange'] = (id) => this.changes.getChange(id);
  transitionChange: ChangeStore['transitionChange'] = (id, from, to, patch, opts) =>
    this.changes.transitionChange(id, from, to, patch, opts);
  listChanges: ChangeStore['listChanges'] = (filter) => this.changes.listChanges(filter);
  markFollowedUp: ChangeStore['markFollowedUp'] = (id) => this.changes.markFollowedUp(id);
  expireChanges: ChangeStore['expireChanges'] = (now) => this.changes.expireChanges(now);
  claimNotice: ChangeStore['claimNotice'] = (id, notice, statuses, now) =>
    this.changes.claimNotice(id, notice, statuses, now);
  releaseNotice: ChangeStore['releaseNotice'] = (id, notice) => this.changes.releaseNotice(id, notice);
  claimRollback: ChangeStore['claimRollback'] = (id, by, now) => this.changes.claimRollback(id, by, now);
  releaseRollback: ChangeStore['releaseRollback'] = (id, by) => this.changes.releaseRollback(id, by);

  // approvals
  addApproval: ApprovalStore['addApproval'] = (a) => this.approvals.addApproval(a);
  listApprovals: ApprovalStore['listApprovals'] = (id) => this.approvals.listApprovals(id);
  listApprovalsFor: ApprovalStore['listApprovalsFor'] = (ids) => this.approvals.listApprovalsFor(ids);

  // audit
  appendAudit: AuditStore['appendAudit'] = (entry) => this.audit.appendAudit(entry);
  queryAudit: AuditStore['queryAudit'] = (filter) => this.audit.queryAudit(filter);

  // releases
  createRelease: ReleaseStore['createRelease'] = (r) => this.releases.createRelease(r);
  getRelease: ReleaseStore['getRelease'] = (id) => this.releases.getRelease(id);
  findReleaseByMessage: ReleaseStore['findReleaseByMessage'] = (channel, ts) =>
    this.releases.findReleaseByMessage(channel, ts);
  findOpenReleaseByTitle: ReleaseStore['findOpenReleaseByTitle'] = (workspace, channel, title) =>
    this.releases.findOpenReleaseByTitle(workspace, channel, title);
  updateRelease: ReleaseStore['updateRelease'] = (id, patch, expectVersion) =>
    this.releases.updateRelease(id, patch, expectVersion);
  listReleases: ReleaseStore['listReleases'] = (filter) => this.releases.listReleases(filter);

  // tails
  createTail: TailStore['createTail'] = (t) => this.tails.createTail(t);
  getTail: TailStore['getTail'] = (id) => this.tails.getTail(id);
  updateTail: TailStore['updateTail'] = (id, patch, expectVersion) =>
    this.tails.updateTail(id, patch, expectVersion);
  listTails: TailStore['listTails'] = (filter) => this.tails.listTails(filter);

  // leases
  acquireLease: LeaseStore['acquireLease'] = (key, owner, ttlMs, now) =>
    this.leases.acquireLease(key, owner, ttlMs, now);
  renewLease: LeaseStore['renewLease'] = (key, owner, ttlMs, now) =>
    this.leases.renewLease(key, owner, ttlMs, now);
  releaseLease: LeaseStore['releaseLease'] = (key, owner) => this.leases.releaseLease(key, owner);
  getLease: LeaseStore['getLease'] = (key) => this.leases.getLease(key);

  // request keys
  rememberRequest: RequestKeyStore['rememberRequest'] = (key, ttlMs, now) =>
    this.requestKeys.rememberRequest(key, ttlMs, now);

  // views the bot opened
  rememberView: ViewStore['rememberView'] = (viewId, hash, ttlMs, now) =>
    this.views.rememberView(viewId, hash, ttlMs, now);
  openedViewHash: ViewStore['openedViewHash'] = (viewId, now) => this.views.openedViewHash(viewId, now);

  // Home tabs people have open
  noteHomeOpened: HomeViewerStore['noteHomeOpened'] = (team, user, ttlMs, now) =>
    this.homeTabs.noteHomeOpened(team, user, ttlMs, now);
  homeViewers: HomeViewerStore['homeViewers'] = (team, now) => this.homeTabs.homeViewers(team, now);
  // Slack's rate limits, shared by the replicas
  takeSlot: SlackBudgetStore['takeSlot'] = (rule, now) => this.slackBudget.takeSlot(rule, now);
  returnSlot: SlackBudgetStore['returnSlot'] = (key, intervalMs) =>
    this.slackBudget.returnSlot(key, intervalMs);
  holdSlots: SlackBudgetStore['holdSlots'] = (key, tat) => this.slackBudget.holdSlots(key, tat);
  reportDemand: SlackBudgetStore['reportDemand'] = (key, replica, consumers, ttlMs, now) =>
    this.slackBudget.reportDemand(key, replica, consumers, ttlMs, now);

  // watches (issue 29)
  addWatch: WatchStore['addWatch'] = (sub) => this.watches.addWatch(sub);
  removeWatch: WatchStore['removeWatch'] = (workspace, channel, env) =>
    this.watches.removeWatch(workspace, channel, env);
  listWatches: WatchStore['listWatches'] = (filter) => this.watches.listWatches(filter);
  watchedEnvironments: WatchStore['watchedEnvironments'] = () => this.watches.watchedEnvironments();
  claimPoll: WatchStore['claimPoll'] = (env, gapMs, now) => this.watches.claimPoll(env, gapMs, now);
  notePoll: WatchStore['notePoll'] = (env, failure) => this.watches.notePoll(env, failure);
  getPoller: WatchStore['getPoller'] = (env) => this.watches.getPoller(env);
  listTroubles: WatchStore['listTroubles'] = (env) => this.watches.listTroubles(env);
  putTrouble: WatchStore['putTrouble'] = (t) => this.watches.putTrouble(t);
  deleteTrouble: WatchStore['deleteTrouble'] = (env, key) => this.watches.deleteTrouble(env, key);
  noteProgress: WatchStore['noteProgress'] = (env, marks, now) => this.watches.noteProgress(env, marks, now);
  openAlerts: WatchStore['openAlerts'] = (alerts) => this.watches.openAlerts(alerts);
  listAlerts: WatchStore['listAlerts'] = (filter) => this.watches.listAlerts(filter);
  getAlert: WatchStore['getAlert'] = (id) => this.watches.getAlert(id);
  claimAlertPost: WatchStore['claimAlertPost'] = (id, owner, staleMs, now) =>
    this.watches.claimAlertPost(id, owner, staleMs, now);
  reviseAlert: WatchStore['reviseAlert'] = (id, revision) => this.watches.reviseAlert(id, revision);
  markAlertDrawn: WatchStore['markAlertDrawn'] = (id, drawn, ts) =>
    this.watches.markAlertDrawn(id, drawn, ts);
  recoverAlerts: WatchStore['recoverAlerts'] = (env, key, lastedMs, now) =>
    this.watches.recoverAlerts(env, key, lastedMs, now);
  muteAlert: WatchStore['muteAlert'] = (id, until, by) => this.watches.muteAlert(id, until, by);
  mutedChannels: WatchStore['mutedChannels'] = (env, key, now) => this.watches.mutedChannels(env, key, now);

  // the outbox (issue 39)
  appendOutbox: OutboxStore['appendOutbox'] = (entry) => this.outbox.appendOutbox(entry);
  readOutbox: OutboxStore['readOutbox'] = (after, limit) => this.outbox.readOutbox(after, limit);
  lastOutboxSeq: OutboxStore['lastOutboxSeq'] = () => this.outbox.lastOutboxSeq();
  claimOutbox: OutboxStore['claimOutbox'] = (subscriber, seq, ttlMs, now) =>
    this.outbox.claimOutbox(subscriber, seq, ttlMs, now);
  pruneOutbox: OutboxStore['pruneOutbox'] = (before, now) => this.outbox.pruneOutbox(before, now);

  // Slack's change messages (issue 39)
  placeChangeMessage: ChangeMessageStore['placeChangeMessage'] = (id, channel, ts) =>
    this.changeMessageParts.placeChangeMessage(id, channel, ts);
  noteAsk: ChangeMessageStore['noteAsk'] = (id, channel, ts) =>
    this.changeMessageParts.noteAsk(id, channel, ts);
  markMessageDrawn: ChangeMessageStore['markMessageDrawn'] = (id, status) =>
    this.changeMessageParts.markMessageDrawn(id, status);
  changeMessages: ChangeMessageStore['changeMessages'] = (ids) => this.changeMessageParts.changeMessages(ids);
  undrawnChanges: ChangeMessageStore['undrawnChanges'] = (statuses, limit) =>
    this.changeMessageParts.undrawnChanges(statuses, limit);

  // freezes (issue 41)
  addFreeze: FreezeStore['addFreeze'] = (f) => this.freezes.addFreeze(f);
  endFreezes: FreezeStore['endFreezes'] = (env, by, now) => this.freezes.endFreezes(env, by, now);
  listFreezes: FreezeStore['listFreezes'] = (filter) => this.freezes.listFreezes(filter);
  // guards (issue 42)
  createGuard: GuardStore['createGuard'] = (g) => this.guards.createGuard(g);
  getGuard: GuardStore['getGuard'] = (id) => this.guards.getGuard(id);
  listOpenGuards: GuardStore['listOpenGuards'] = (limit) => this.guards.listOpenGuards(limit);
  leaseGuard: GuardStore['leaseGuard'] = (id, owner, ttl, now) => this.guards.leaseGuard(id, owner, ttl, now);
  noteGuardTrouble: GuardStore['noteGuardTrouble'] = (id, owner, seen, now) =>
    this.guards.noteGuardTrouble(id, owner, seen, now);
  listRolledBackGuards: GuardStore['listRolledBackGuards'] = (since, limit) =>
    this.guards.listRolledBackGuards(since, limit);
  moveGuard: GuardStore['moveGuard'] = (id, owner, from, patch, now) =>
    this.guards.moveGuard(id, owner, from, patch, now);
}
