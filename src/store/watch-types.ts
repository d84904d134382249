/**
 * Watches in the store (issue 29): subscriptions, the per-environment poll
 * bookkeeping, what is wrong per object, and alert episodes. A leaf beside
 * types.ts so the watch records are read in one place.
 */

/** A channel watching an environment. */
export interface WatchSubscription {
  workspace: string;
  channel: string;
  env: string;
  createdBy: string;
  createdAt: number;
}

/** When an environment was last listed and whether its polling is paused after an API error. */
export interface WatchPollerRecord {
  env: string;
  lastPollAt?: number;
  /** API failures in a row. */
  failures: number;
  /** The status the API answered (0: no answer) when polling paused. */
  pausedStatus?: number;
  pausedAt?: number;
  /** Polling resumes no earlier than this. */
  resumeAt?: number;
  pausedReason?: string;
}

/** The kinds a watch covers. */
export const WATCH_KINDS = ['Armada', 'ArmadaSet', 'Formation', 'Vessel'] as const;
export type WatchKind = (typeof WATCH_KINDS)[number];

/** An object seen in trouble: since when, last when, and since when it looks well again. */
export interface WatchTrouble {
  env: string;
  /** `<Kind>/<name>`. */
  objectKey: string;
  kind: string;
  name: string;
  state: string;
  reason?: string;
  /** More about the trouble: the Sites down, the counts. */
  detail?: string;
  firstBadAt: number;
  lastBadAt: number;
  /** The first reading well again after the last bad one; undefined while bad. */
  goodSince?: number;
}

/** A fleet behind a grouped alert's cause; `recovered` once it is well again while the cause lasts. */
export interface AlertFleet {
  kind: 'Armada' | 'ArmadaSet';
  name: string;
  region?: string;
  recovered?: boolean;
}

/** What a poll may change in an open alert about a cause: what it says and the fleets behind it. */
export interface AlertRevision {
  state: string;
  reason?: string;
  detail?: string;
  fleets: AlertFleet[];
}

export const ALERT_DRAWN = ['none', 'open', 'recovered'] as const;
export type AlertDrawn = (typeof ALERT_DRAWN)[number];

/** One episode of trouble of one object, as alerted in one channel. */
export interface WatchAlert {
  id: string;
  workspace: string;
  channel: string;
  env: string;
  objectKey: string;
  kind: string;
  name: string;
  region?: string;
  state: string;
  reason?: string;
  detail?: string;
  /** A grouped alert (a Site down, a Degraded reason): the fleets behind its cause; absent on per-object alerts. */
  fleets?: AlertFleet[];
  firstBadAt: number;
  openedAt: number;
  /** The alert message, once posted. */
  messageTs?: string;
  postClaim?: string;
  postClaimAt?: number;
  recoveredAt?: number;
  lastedMs?: number;
  /**
   * What the message shows now: nothing posted yet (or, with a message, an
   * older revision of the open alert), the open alert, or its recovery.
   */
  drawn: AlertDrawn;
  mutedUntil?: number;
  mutedBy?: string;
}

export interface AlertFilter {
  workspace?: string;
  channels?: readonly string[];
  env?: string;
  objectKey?: string;
  /** Only open (true) or only recovered (false) alerts. */
  open?: boolean;
  /** Only alerts whose message does not show what they are (to post or to edit). */
  undrawn?: boolean;
  limit?: number;
}

/** A failure of one poll, as `/harbor watches` shows it. */
export interface PollFailure {
  status: number;
  reason: string;
  at: number;
  resumeAt: number;
}

export interface WatchStore {
  /** Subscribes; false when the channel already watched that environment. */
  addWatch(sub: WatchSubscription): Promise<boolean>;
  /** Ends a subscription; false when there was none. */
  removeWatch(workspace: string, channel: string, env: string): Promise<boolean>;
  /** Subscriptions, optionally of one channel or of one environment, by channel then environment. */
  listWatches(filter: { workspace?: string; channel?: string; env?: string }): Promise<WatchSubscription[]>;
  /** The environments at least one channel watches. */
  watchedEnvironments(): Promise<string[]>;

  /**
   * Claims the next poll of `env` at `now`: true for at most one caller per
   * `gapMs`, whoever asks, and never while polling is paused. This is what
   * bounds the API load whatever the number of replicas.
   */
  claimPoll(env: string, gapMs: number, now: number): Promise<boolean>;
  /** Records how the claimed poll went: undefined for success (clears a pause), else the failure. */
  notePoll(env: string, failure: PollFailure | undefined): Promise<void>;
  getPoller(env: string): Promise<WatchPollerRecord | undefined>;

  listTroubles(env: string): Promise<WatchTrouble[]>;
  putTrouble(trouble: WatchTrouble): Promise<void>;
  deleteTrouble(env: string, objectKey: string): Promise<void>;

  /**
   * Records where a followed rollout stands (`mark`) at `now`; returns since
   * when it has stood there (now, when it moved). Rollouts of `env` not in
   * `keep` are forgotten (done, or no longer followed).
   */
  noteProgress(env: string, marks: ReadonlyMap<string, string>, now: number): Promise<Map<string, number>>;

  /**
   * Opens alerts in one statement; returns those opened (in no particular order): an alert
   * whose object already has one open in its channel is left out.
   */
  openAlerts(alerts: readonly WatchAlert[]): Promise<WatchAlert[]>;
  listAlerts(filter: AlertFilter): Promise<WatchAlert[]>;
  getAlert(id: string): Promise<WatchAlert | undefined>;
  /** Claims posting an undrawn alert for `owner`; a claim older than `staleMs` may be taken over. */
  claimAlertPost(id: string, owner: string, staleMs: number, now: number): Promise<boolean>;
  /**
   * Rewrites what an open alert says (a grouped alert whose fleets changed)
   * and marks it undrawn, so the next draw edits its message; false when it
   * is no longer open.
   */
  reviseAlert(id: string, revision: AlertRevision): Promise<boolean>;
  /** Records the posted message and what it shows. */
  markAlertDrawn(id: string, drawn: AlertDrawn, messageTs?: string): Promise<void>;
  /** Recovers the open alerts of an object in an environment (every channel); returns those it recovered. */
  recoverAlerts(env: string, objectKey: string, lastedMs: number, now: number): Promise<WatchAlert[]>;
  /** `workspace:channel` of the channels that muted this object until after `now`. */
  mutedChannels(env: string, objectKey: string, now: number): Promise<string[]>;
  /** Mutes an alert until `until`; returns it, or undefined when unknown. */
  muteAlert(id: string, until: number, by: string): Promise<WatchAlert | undefined>;
}
