/**
 * Which release `release end <title-or-id>` means. Ids are exact; titles are
 * matched ignoring case and spacing, among the open releases of the
 * workspace, this channel's first. Several matches are not guessed between:
 * the caller lists their ids.
 */
import { UserError } from '../errors/user-error.js';
import type { ReleaseRecord, ReleaseStore } from '../store/types.js';
import { releaseData } from './types.js';

/** The release meant, or every open release the title matched when it is ambiguous. */
export type FoundRelease =
  | { kind: 'one'; release: ReleaseRecord }
  | { kind: 'ambiguous'; matches: ReleaseRecord[] };

/** A title as people retype it: case and runs of spaces do not matter. */
function titleKey(title: string): string {
  return title.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Open releases of `workspace` titled like `title` (withdrawn starts left out), oldest first. */
export async function openReleasesTitled(
  store: ReleaseStore,
  workspace: string,
  title: string,
): Promise<ReleaseRecord[]> {
  const key = titleKey(title);
  const open = await store.listReleases({ status: 'open', workspace });
  return open.filter((r) => titleKey(r.title) === key && !releaseData(r).withdrawn);
}

/** Finds the release `ref` names for a command run in `channel`; throws UserError when there is none. */
export async function findRelease(
  store: ReleaseStore,
  where: { workspace: string; channel: string },
  ref: string,
): Promise<FoundRelease> {
  const byId = await store.getRelease(ref.trim());
  if (byId && byId.workspace === where.workspace && !releaseData(byId).withdrawn)
    return { kind: 'one', release: byId };
  const open = await openReleasesTitled(store, where.workspace, ref);
  const here = open.filter((r) => r.channel === where.channel);
  const matches = here.length ? here : open;
  if (matches.length === 1) return { kind: 'one', release: matches[0] as ReleaseRecord };
  if (matches.length > 1) return { kind: 'ambiguous', matches };
  const ended = (await store.listReleases({ status: 'ended', workspace: where.workspace })).some(
    (r) => titleKey(r.title) === titleKey(ref) && !releaseData(r).withdrawn,
  );
  throw new UserError(
    ended
      ? `The release “${ref.trim()}” has already ended.`
      : `No open release is titled “${ref.trim()}” (or has that id). The open ones show on the App Home tab; end one with \`/harbor release end <title-or-id>\`, or start one with \`/harbor release start <title>\`.`,
    'not_found',
  );
}
