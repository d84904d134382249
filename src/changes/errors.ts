/** The change domain's errors for users: requests that fail validation, and previews the world has outgrown. */
import { UserError } from '../errors/user-error.js';

export interface FieldProblem {
  /** The request field, e.g. `targetBranch` or `containers[0].cpu`. */
  field: string;
  /** What was wrong and what was expected, with an example. */
  message: string;
  /**
   * The same problem in a form's words, where `message` speaks a command's
   * (flags such as `--max`); a form shows this instead.
   */
  formMessage?: string;
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

/**
 * A name the request gives is taken (a vessel or region that exists): said as
 * written, and `field` names the request field, so a form shows it under that
 * field rather than above the form (issue 18.13).
 */
export class NameTakenError extends UserError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message, 'duplicate');
  }
}

/** The time a change was to be scheduled at names none it may be (past, unreadable, too far ahead): shown under a form's When field. */
export class ScheduleTimeError extends UserError {
  constructor(message: string) {
    super(message, 'validation');
  }
}

/**
 * The policy refuses the guard asked for (issue 42): `message` in a typed
 * command's words (`--guard`, `--no-guard`), `formMessage` in a change form's
 * (its Guard field), where a form shows it beside that field.
 */
export class GuardRefusedError extends UserError {
  constructor(
    message: string,
    readonly formMessage: string,
  ) {
    super(message, 'refused');
  }
}
