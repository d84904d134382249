/**
 * The contract between the Slack layer and live tails: commands, buttons and
 * release threads start and stop tails only through this interface.
 */
import type { TailRecord } from '../store/types.js';

export interface TailStartInput {
  workspace: string;
  channel: string;
  /** Post the tail in this thread (a release thread); otherwise a new "Tailing <vessel>" thread. */
  threadTs?: string;
  releaseId?: string;
  env: string;
  vessel: string;
  container?: string;
  /** Who started it (Slack user id). */
  user: string;
}

export interface TailService {
  /** Posts the tail message, records the tail, takes its lease and starts following. */
  start(input: TailStartInput): Promise<TailRecord>;
  /** Stops a tail here, or asks its owning replica to; `by` is the Slack user id. */
  stop(tailId: string, by: string): Promise<'stopped' | 'requested' | 'already_stopped'>;
  /** Stops every active tail of a release (reason: the release ended); returns how many once those running here have ended. */
  stopRelease(releaseId: string): Promise<number>;
  /** Takes over active tails whose owner's lease lapsed (at start-up and periodically). */
  resumeOrphans(): Promise<void>;
  /** Hears of each tail this replica started or saw stop (a Home tab lists live tails); returns the unsubscribe. */
  onChanged(listener: (record: TailRecord) => void): () => void;
  /** Stops local runners without marking tails stopped (another replica or a restart resumes them). */
  close(): Promise<void>;
}
