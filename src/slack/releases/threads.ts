/**
 * Release threads: `release start` posts the release message and records
 * it; every change of the release carries the release id, so the message can
 * be redrawn from the store at any time (after a restart too); `release end`
 * posts the summary in the thread and leaves the message as a record without
 * buttons. What a release is and may do is decided in src/releases; this
 * draws and posts it.
 */

import type { ChangeEngine } from '../../changes/engine.js';
import { type EndResult, type ReleaseOption, Releases } from '../../releases/releases.js';
import type { EndChoice, ReleaseSnapshot } from '../../releases/types.js';
import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type {
  ApprovalStore,
  ChangeMessageStore,
  ChangeStore,
  ReleaseRecord,
  ReleaseStore,
  TailStore,
} from '../../store/types.js';
import type { TailService } from '../../tails/types.js';
import type { Actor } from '../handlers/actor.js';
import { placed } from '../handlers/placed.js';
import { postFailure } from '../handlers/post-errors.js';
import { renderReleaseMessage, renderReleaseSummary } from '../render/release-message.js';
import { SerialByKey } from '../runtime/serial.js';
import type { SlackCalls } from '../runtime/slack-calls.js';
import { inThread } from '../runtime/thread.js';

interface ReleaseThreadsDeps {
  store: ReleaseStore &
    Pick<ChangeStore, 'listChanges'> &
    Pick<ApprovalStore, 'listApprovalsFor'> &
    Pick<TailStore, 'listTails'> &
    Pick<ChangeMessageStore, 'changeMessages'>;
  slack: SlackCalls;
  clock: Clock;
  logger: Logger;
  tails: Pick<TailService, 'stopRelease'>;
  /** Cancels the waiting changes an end was told to cancel (the policy judges each). */
  engine: Pick<ChangeEngine, 'cancel'>;
  newId?: () => string;
}

/** Starts, ends and redraws release threads; all state is in the store. */
export class ReleaseThreads {
  private readonly refreshes = new SerialByKey();
  /** The neutral release domain this draws (src/releases). */
  private readonly domain: Releases;

  constructor(private readonly d: ReleaseThreadsDeps) {
    this.domain = new Releases({
      store: d.store,
      clock: d.clock,
      logger: d.logger,
      tails: d.tails,
      // The change's message is redrawn by its owner (slack/change-messages), told by the engine.
      cancel: (click) => d.engine.cancel({ ...click, releaseEnd: true }),
      ...(d.newId ? { newId: d.newId } : {}),
    });
  }

  /** Records a release and posts its message in the actor's channel; refuses a title already open there. */
  async start(actor: Actor, rawTitle: string): Promise<ReleaseRecord> {
    const created = await this.domain.start(actor, rawTitle);
    let ts: string;
    try {
      const message = renderReleaseMessage(
        { release: created, data: {}, changes: [], tails: [] },
        this.d.clock.now(),
      );
      const posted = await this.d.slack.chat.postMessage({
        channel: actor.channel,
        text: message.text,
        blocks: message.blocks,
        unfurl_links: false,
      });
      ts = posted.ts as string;
    } catch (err) {
      await this.domain.withdraw(created);
      throw postFailure(err, 'the release has no thread; nothing was started');
    }
    return this.domain.placed(created, ts);
  }

  /**
   * Ends the release `ref` names (title or id), as src/releases decides (once;
   * waiting changes need `choice`); when it ended, posts the summary in its
   * thread and rewrites its message without buttons.
   */
  async end(actor: Actor, ref: string, choice?: EndChoice): Promise<EndResult> {
    const outcome = await this.domain.end(actor, ref, choice);
    if (outcome.kind !== 'ended') return outcome;
    const ended = outcome.release;
    if (ended.messageTs) {
      const summary = renderReleaseSummary(outcome.summary);
      await this.d.slack.chat.postMessage({
        channel: ended.channel,
        ...inThread(ended.messageTs),
        text: summary.text,
        blocks: summary.blocks,
        unfurl_links: false,
      });
    }
    await this.refresh(ended.id);
    return outcome;
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
  openRelease(releaseId: string): Promise<ReleaseRecord> {
    return this.domain.openRelease(releaseId);
  }

  /** The release a typed change joins (see Releases.forChange). */
  forChange(actor: Actor, option: ReleaseOption | undefined): Promise<ReleaseRecord | undefined> {
    return this.domain.forChange(actor, option);
  }

  /** The record with its changes (and their approvals, and where their messages are) and its active tails. */
  async snapshot(release: ReleaseRecord): Promise<ReleaseSnapshot> {
    const snapshot = await this.domain.snapshot(release);
    return { ...snapshot, changes: await placed(this.d, snapshot.changes) };
  }
}
