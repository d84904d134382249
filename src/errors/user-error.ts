/**
 * Errors meant for users, kept apart from internal ones: a UserError's message
 * is shown as written; anything else is logged with an id and the user is told
 * it failed and where to look. A leaf module, so the domain (changes, tails),
 * the policy and the Slack layer can all throw and recognise it without
 * importing each other.
 */

/** What kind of problem it is, for callers that answer some kinds differently (or count them). */
export type UserErrorKind =
  /** The request or form is malformed or incomplete. */
  | 'validation'
  /** Something it names does not exist (a branch, vessel, change, release, tail). */
  | 'not_found'
  /** The hosting API changed between preview and apply, so the preview would be wrong. */
  | 'world_moved'
  /** The policy (or the API's permissions) does not allow it. */
  | 'refused'
  /** It would change nothing. */
  | 'noop'
  /** It already exists (a vessel, a region type). */
  | 'duplicate'
  /** Something of the same name is already open here (a release title). */
  | 'conflict'
  /** What it acts on is over (an ended release, a stopped tail, an old button). */
  | 'stale'
  /** Slack refused what the request needs (e.g. the bot is not in the channel). */
  | 'slack'
  /** Anything else said to the user as written. */
  | 'user';

/**
 * A change the error refers to (say, the rollback that already undid a change),
 * and where it was requested: surfaces that know where its message is link to it.
 */
export interface ErrorReference {
  /** What the link says, e.g. "change 1f2e…". */
  label: string;
  changeId: string;
  channel: string;
  threadTs?: string;
}

/** A problem the user can act on; its message is safe and meant to be shown verbatim. */
export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(
    message: string,
    readonly kind: UserErrorKind = 'user',
    readonly see?: ErrorReference,
  ) {
    super(message);
  }
}
