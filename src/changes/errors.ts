/**
 * Errors meant for users, kept apart from internal ones: a UserError's message
 * is shown in Slack as written; anything else is logged with an id and the user
 * is told the change failed and where to look.
 */

/** A problem the user can act on; its message is safe and meant to be shown verbatim. */
export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(
    message: string,
    /** A short machine-readable kind, e.g. 'validation', 'not_found', 'world_moved', 'refused'. */
    readonly kind: string = 'user',
  ) {
    super(message);
  }
}

export interface FieldProblem {
  /** The request field, e.g. `targetBranch` or `containers[0].cpu`. */
  field: string;
  /** What was wrong and what was expected, with an example. */
  message: string;
}

/** A request that failed validation; lists every problem, each naming its field. */
export class ValidationError extends UserError {
  constructor(readonly problems: FieldProblem[]) {
    super(problems.map((p) => `${p.field}: ${p.message}`).join('\n'), 'validation');
  }
}

/** The API changed between preview and apply in a way that makes the preview wrong. */
export class WorldMovedError extends UserError {
  constructor(message: string) {
    super(message, 'world_moved');
  }
}
