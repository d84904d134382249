/**
 * Releases without Slack: starting one (the title checked, a duplicate title
 * in the channel refused, also when two starts race), ending one (once,
 * version-checked, after an explicit choice about the changes still waiting),
 * which release a change joins, and a release's snapshot for whoever draws
 * it. Every answer is neutral data or a UserError; src/slack/releases posts
 * and draws.
 */
import { randomUUID } from 'node:crypto';
import { type Change, type ClickOutcome, toChange } from '../changes/change.js';
import { UserError } from '../errors/user-error.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { ApprovalStore, ChangeStore, ReleaseRecord, ReleaseStore, TailStore } from '../store/types.js';
import type { TailService } from '../tails/types.js';
import { type FoundRelease, findRelease, openReleasesTitled } from './find.js';
import { summarize } from './summary.js';
import {
  type EndChoice,
  type ReleaseActor,
  type ReleaseData,
  type ReleaseSnapshot,
  type ReleaseSummary,
  releaseData,
  WAITING_STATUSES,
  waitingDigest,
} from './types.js';

/** Longer titles are more likely a pasted paragraph than a name people will type again. */
export const TITLE_MAX = 500;

export interface ReleasesDeps {
  store: ReleaseStore &
    Pick<ChangeStore, 'listChanges'> &
    Pick<ApprovalStore, 'listApprovalsFor'> &
    Pick<TailStore, 'listTails'>;
  clock: Clock;
  logger: Logger;
  tails: Pick<TailService, 'stopRelease'>;
  /** Withdraws a waiting change on behalf of whoever ends the release (the engine's cancel: the policy judges it). */
  cancel: (click: { changeId: string; user: string; channel: string; team: string }) => Promise<ClickOutcome>;
  newId?: () => string;
}

/** A waiting change the ender chose to cancel but may not (the policy's reason). */
export interface NotCancelled {
  change: Change;
  reason: string;
}

/** What `end` did. */
export type EndResult =
  | {
      kind: 'ended';
      release: ReleaseRecord;
      summary: ReleaseSummary;
      tailsStopped: number;
      /** Cancelled by this end, as the engine left them (their messages need redrawing). */
      cancelled: ClickOutcome[];
      notCancelled: NotCancelled[];
      /** Left waiting on purpose ("keep them"). */
      kept: Change[];
    }
  /** Changes still wait: the ender must say whether to cancel or keep them (the choice carries `version` and `digest`). */
  | { kind: 'waiting'; release: ReleaseRecord; waiting: Change[]; digest: string }
  | Extract<FoundRelease, { kind: 'ambiguous' }>;

/** Which release a change typed as a command joins: one named, none, or the channel's only open one. */
export type ReleaseOption = { kind: 'named'; ref: string } | { kind: 'none' };

export class Releases {
  private readonly newId: () => string;

  constructor(private readonly d: ReleasesDeps) {
    this.newId = d.newId ?? (() => `rel-${randomUUID().slice(0, 8)}`);
  }

  /** Records an open release titled `rawTitle` in the actor's channel; refuses a title already open there. */
  async start(actor: ReleaseActor, rawTitle: string): Promise<ReleaseRecord> {
    const title = rawTitle.trim().replace(/\s+/g, ' ');
    if (title.length > TITLE_MAX) {
      throw new UserError(
        `A release title can be at most ${TITLE_MAX} characters (got ${title.length}).`,
        'validation',
      );
    }
    await this.refuseDuplicate(actor, title);
    const created = await this.d.store.createRelease({
      id: this.newId(),
      workspace: actor.team,
      channel: actor.channel,
      title,
      status: 'open',
      createdBy: actor.user,
      createdAt: this.d.clock.now(),
      data: {} satisfies ReleaseData,
    });
    // Two starts can both pass the check above; the older record wins and the other withdraws.
    const rivals = await openReleasesTitled(this.d.store, actor.team, title);
    const first = rivals.filter((r) => r.channel === actor.channel).sort(byAge)[0];
    if (first && first.id !== created.id) {
      await this.withdraw(created);
      throw duplicate(first);
    }
    return created;
  }

  /** Records where the release's message was posted (its thread is the release thread). */
  async placed(release: ReleaseRecord, messageTs: string): Promise<ReleaseRecord> {
    const saved = await this.d.store.updateRelease(release.id, { messageTs });
    return saved ?? { ...release, messageTs };
  }

  /** Takes back a start that could not be shown: it is never listed, matched or joined. */
  async withdraw(release: ReleaseRecord): Promise<void> {
    const data: ReleaseData = { withdrawn: true };
    await this.d.store
      .updateRelease(release.id, { status: 'ended', endedAt: this.d.clock.now(), data })
      .catch((err: unknown) => this.d.logger.warn('could not withdraw a release record', { error: err }));
  }

  /**
   * Ends the release `ref` names (title or id). Without `choice`, a release
   * whose changes still wait is not ended: the answer lists them, for the
   * ender to choose. With it, the release is ended once (a second click of
   * the same choice finds it ended), its tails stop and its waiting changes
   * are cancelled or kept as chosen; if what waits is no longer what the
   * choice was offered for, the answer lists them again instead.
   */
  async end(actor: ReleaseActor, ref: string, choice?: EndChoice): Promise<EndResult> {
    const found = await findRelease(this.d.store, { workspace: actor.team, channel: actor.channel }, ref);
    if (found.kind === 'ambiguous') return found;
    const release = found.release;
    if (release.status === 'ended')
      throw new UserError(`The release “${release.title}” has already ended.`, 'stale');
    if (choice && choice.version !== release.version)
      throw new UserError(
        `The release “${release.title}” changed since you chose; end it again to see what still waits.`,
        'stale',
      );
    const waiting = (await this.snapshot(release)).changes.filter((c) => WAITING_STATUSES.has(c.status));
    const digest = waitingDigest(waiting);
    if (waiting.length && choice?.digest !== digest) return { kind: 'waiting', release, waiting, digest };

    const now = this.d.clock.now();
    const data: ReleaseData = { ...releaseData(release), endedBy: actor.user };
    const ended = await this.d.store.updateRelease(
      release.id,
      { status: 'ended', endedAt: now, data },
      release.version,
    );
    if (!ended) {
      const again = await this.d.store.getRelease(release.id);
      throw new UserError(
        again?.status === 'ended'
          ? `The release “${release.title}” has just been ended by someone else.`
          : `The release “${release.title}” changed while ending it; run the command again.`,
        'stale',
      );
    }
    // Only the one end that won the version check gets here, so nothing is cancelled twice.
    const cancelled: ClickOutcome[] = [];
    const notCancelled: NotCancelled[] = [];
    if (choice?.waiting === 'cancel') {
      for (const change of waiting) {
        const outcome = await this.d.cancel({
          changeId: change.id,
          user: actor.user,
          channel: actor.channel,
          team: actor.team,
        });
        if (outcome.kind === 'cancelled') cancelled.push(outcome);
        else if (outcome.kind === 'refused') notCancelled.push({ change, reason: outcome.message });
      }
    }
    const tailsStopped = await this.d.tails.stopRelease(release.id).catch((err: unknown) => {
      // The release is ended either way; tails also stop on their own when they see it.
      this.d.logger.warn('could not stop the tails of an ended release', {
        releaseId: release.id,
        error: err,
      });
      return 0;
    });
    const summary = summarize(await this.snapshot(ended), now, tailsStopped);
    const kept = choice?.waiting === 'keep' ? waiting : [];
    return { kind: 'ended', release: ended, summary, tailsStopped, cancelled, notCancelled, kept };
  }

  /** The open release `releaseId`, or a UserError saying why its buttons no longer work. */
  async openRelease(releaseId: string): Promise<ReleaseRecord> {
    const release = await this.d.store.getRelease(releaseId);
    if (!release || releaseData(release).withdrawn)
      throw new UserError('This release no longer exists.', 'not_found');
    if (release.status !== 'open')
      throw new UserError(
        `The release “${release.title}” has ended; start a new one for more work.`,
        'stale',
      );
    return release;
  }

  /**
   * The release a change typed in the actor's channel joins. Named: that open
   * release (by title or id). `none`: no release. Not said: the channel's one
   * open release, if it has exactly one (an on-call engineer working in a
   * release's channel means the release); with several, the change must say
   * which, rather than land in one by guess.
   */
  async forChange(
    actor: ReleaseActor,
    option: ReleaseOption | undefined,
  ): Promise<ReleaseRecord | undefined> {
    if (option?.kind === 'none') return undefined;
    if (option?.kind === 'named') {
      const found = await findRelease(
        this.d.store,
        { workspace: actor.team, channel: actor.channel },
        option.ref,
      );
      if (found.kind === 'ambiguous')
        throw new UserError(
          `${found.matches.length} open releases are titled “${option.ref.trim()}”: ${ids(found.matches)}. Name the one meant by its id with \`--release <id>\`.`,
          'validation',
        );
      const release = await this.openRelease(found.release.id);
      // A change is judged and previewed where it was typed; a thread in another channel cannot hold it.
      if (release.channel !== actor.channel)
        throw new UserError(
          `The release “${release.title}” (\`${release.id}\`) is open in another channel; run the command there to add to it.`,
          'validation',
        );
      return release;
    }
    const here = (await this.d.store.listReleases({ status: 'open', workspace: actor.team })).filter(
      (r) => r.channel === actor.channel && !releaseData(r).withdrawn && r.messageTs,
    );
    if (here.length <= 1) return here[0];
    throw new UserError(
      `${here.length} releases are open in this channel (${here.map((r) => `“${r.title}” \`${r.id}\``).join(', ')}): add \`--release <title-or-id>\` to say which this change belongs to, or \`--no-release\` to keep it out of them.`,
      'validation',
    );
  }

  /** The record with its changes (and their approvals) and its active tails. */
  async snapshot(release: ReleaseRecord): Promise<ReleaseSnapshot> {
    const [records, tails] = await Promise.all([
      this.d.store.listChanges({ releaseId: release.id }),
      this.d.store.listTails({ releaseId: release.id, status: 'active' }),
    ]);
    const approvals = await this.d.store.listApprovalsFor(records.map((r) => r.id));
    const changes = records.map((r) => toChange(r, approvals.get(r.id) ?? []));
    return { release, data: releaseData(release), changes, tails };
  }

  private async refuseDuplicate(actor: ReleaseActor, title: string): Promise<void> {
    const open = await openReleasesTitled(this.d.store, actor.team, title);
    const here = open.find((r) => r.channel === actor.channel);
    if (here) throw duplicate(here);
  }
}

function ids(matches: readonly ReleaseRecord[]): string {
  return matches.map((r) => `\`${r.id}\``).join(', ');
}

function byAge(a: ReleaseRecord, b: ReleaseRecord): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function duplicate(open: ReleaseRecord): UserError {
  return new UserError(
    `A release titled “${open.title}” is already open in this channel (id \`${open.id}\`). End it with \`release end ${open.id}\`, or pick another title.`,
    'conflict',
  );
}
