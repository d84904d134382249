/**
 * A release message lists its live tails, so starting one in its thread or
 * stopping one with its Stop button redraws it. The tail service knows
 * nothing of release messages; this wraps it for the handlers.
 */
import type { TailStore } from '../../store/types.js';
import type { TailService } from '../../tails/types.js';

/** `tails`, redrawing the release message after a tail of a release is started or stopped through it. */
export function tailsRefreshingReleases(
  tails: TailService,
  store: Pick<TailStore, 'getTail'>,
  refresh: (releaseId: string) => Promise<void>,
): TailService {
  return {
    start: async (input) => {
      const record = await tails.start(input);
      if (record.releaseId) await refresh(record.releaseId);
      return record;
    },
    stop: async (tailId, by) => {
      const outcome = await tails.stop(tailId, by);
      const record = await store.getTail(tailId);
      if (record?.releaseId) await refresh(record.releaseId);
      return outcome;
    },
    stopRelease: (releaseId) => tails.stopRelease(releaseId),
    resumeOrphans: () => tails.resumeOrphans(),
    close: () => tails.close(),
  };
}
