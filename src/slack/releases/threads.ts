/**
 * Release threads: `release start` posts the release message and records
 * it; every change requested from its buttons carries the release id, so the
 * message can be redrawn from the store at any time (after a restart too);
 * `release end` stops the release's tails, posts the summary in the thread
 * and leaves the message as a record without buttons.
 */
import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import { toChange } from '../../changes/change.js';
import { UserError } from '../../errors/user-error.js';
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type {
  ApprovalStore,
  ChangeStore,
  ReleaseRecord,
  ReleaseStore,
  TailStore,
} from '../../store/types.js';
import type { TailService } from '../../tails/types.js';
import type { Actor } from '../handlers/actor.js';
import { postFailure } from '../handlers/post-errors.js';
import { renderReleaseMessage, renderReleaseSummary } from '../render/release-message.js';
import { type FoundRelease, findRelease, openReleasesTitled } from './find.js';
import { SerialByKey } from './serial.js';
import { summarize } from './summary.js';
import { type ReleaseData, type ReleaseSnapshot, releaseData } from './types.js';

/** Longer titles are more likely a pasted paragraph than a name people will type again. */
export const TITLE_MAX = 500;

interface ReleaseThreadsDeps {
  store: ReleaseStore &
    Pick<ChangeStore, 'listChanges'> &
    Pick<ApprovalStore, 'listApprovalsFor'> &
    Pick<TailStore, 'listTails'>;
  slack: WebClient;
  clock: Clock;
  logger: Logger;
  tails: Pick<TailService, 'stopRelease'>;
  newId?: () => string;
}

/** What `end` did: ended one release, or found several the title could mean. */
type EndOutcome =
  | { kind: 'ended'; release: ReleaseRecord; tailsStopped: number }
  | Extract<FoundRelease, { kind: 'ambiguous' }>;

/** Starts, ends and redraws release threads; all state is in the store. */
export class ReleaseThreads {
  private readonly refreshes = new SerialByKey();
  private readonly newId: () => string;

  constructor(private readonly d: ReleaseThreadsDeps) {
    this.newId = d.newId ?? (() => `rel-${randomUUID().slice(0, 8)}`);
  }

  /** Records a release and posts its message in the actor's channel; refuses a title already open there. */
  async start(actor: Actor, rawTitle: string): Promise<ReleaseRecord> {
    const title = rawTitle.trim().replace(/\s+/g, ' ');
    if (title.length > TITLE_MAX) {
      throw new UserError(
        `A release title can be at most ${TITLE_MAX} characters (got ${title.length}).`,
        'validation',
      );
    }
    await this.refuseDuplicate(actor, title);
    const now = this.d.clock.now();
    const created = await this.d.store.createRelease({
      id: this.newId(),
      workspace: actor.team,
      channel: actor.channel,
      title,
      status: 'open',
      createdBy: actor.user,
      createdAt: now,
      data: {} satisfies ReleaseData,
    });
    // Two starts can both pass the check above; the older record wins and the other withdraws.
    const rivals = await openReleasesTitled(this.d.store, actor.team, title);
    const first = rivals.filter((r) => r.channel === actor.channel).sort(byAge)[0];
    if (first && first.id !== created.id) {
      await this.withdraw(created);
      throw duplicate(first);
    }
    let ts: string;
    try {
      const message = renderReleaseMessage({ release: created, data: {}, changes: [], tails: [] }, now);
      const posted = await this.d.slack.chat.postMessage({
        channel: actor.channel,
        text: message.text,
        blocks: message.blocks,
        unfurl_links: false,
      });
      ts = posted.ts as string;
    } catch (err) {
      await this.withdraw(created);
      throw postFailure(err, 'the release has no thread; nothing was started');
    }
    const saved = await this.d.store.updateRelease(created.id, { messageTs: ts });
    return saved ?? { ...created, messageTs: ts };
  }

  /**
   * Ends the release `ref` names (title or id): marks it ended (once, even when
   * two replicas race), stops its tails, posts the summary in its thread and
   * rewrites its message without buttons.
   */
  async end(actor: Actor, ref: string): Promise<EndOutcome> {
    const found = await findRelease(this.d.store, { workspace: actor.team, channel: actor.channel }, ref);
    if (found.kind === 'ambiguous') return found;
    const release = found.release;
    if (release.status === 'ended')
      throw new UserError(`The release “${release.title}” has already ended.`, 'stale');
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
    const tailsStopped = await this.d.tails.stopRelease(release.id).catch((err: unknown) => {
      // The release is ended either way; tails also stop on their own when they see it.
      this.d.logger.warn('could not stop the tails of an ended release', {
        releaseId: release.id,
        error: err,
      });
      return 0;
    });
    const snapshot = await this.snapshot(ended);
    if (ended.messageTs) {
      const summary = renderReleaseSummary(summarize(snapshot, now, tailsStopped));
      await this.d.slack.chat.postMessage({
        channel: ended.channel,
        thread_ts: ended.messageTs,
        text: summary.text,
        blocks: summary.blocks,
        unfurl_links: false,
      });
    }
    await this.refresh(ended.id);
    return { kind: 'ended', release: ended, tailsStopped };
  }

  /**
   * Redraws the release message from the store. The bot calls it on every
   * ReleaseContentChanged the engine and the tail service emit (a change
   * requested or moved, a tail started or stopped). Never throws; refreshes
   * of one release run one at a time.
   */
  refresh(releaseId: string): Promise<void> {
    return this.refreshes.run(releaseId, async () => {
      try {
        const release = await this.d.store.getRelease(releaseId);
        if (!release?.messageTs) return;
        const message = renderReleaseMessage(await this.snapshot(release), this.d.clock.now());
        await this.d.slack.chat.update({
          channel: release.channel,
          ts: release.messageTs,
          text: message.text,
          blocks: message.blocks,
        });
      } catch (err) {
        this.d.logger.warn('could not refresh a release message', { releaseId, error: err });
      }
    });
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

  private async refuseDuplicate(actor: Actor, title: string): Promise<void> {
    const open = await openReleasesTitled(this.d.store, actor.team, title);
    const here = open.find((r) => r.channel === actor.channel);
    if (here) throw duplicate(here);
  }

  private async withdraw(release: ReleaseRecord): Promise<void> {
    const data: ReleaseData = { withdrawn: true };
    await this.d.store
      .updateRelease(release.id, { status: 'ended', endedAt: this.d.clock.now(), data })
      .catch((err: unknown) => this.d.logger.warn('could not withdraw a release record', { error: err }));
  }
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
