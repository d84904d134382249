/**
 * Shapes shared by the modals: what they need to load choices, the
 * `view.state.values` Slack sends back, and the per-modal definition the
 * index dispatches to.
 */
import type { KnownBlock, PlainTextElement } from '@slack/types';
import type { FieldProblem } from '../../changes/errors.js';
import type { FormQueries } from '../../changes/form-queries.js';
import type { GuardAsk } from '../../changes/guard-choice.js';
import type { ChangeInput } from '../../changes/requests/index.js';
import type { ModalMetadata } from '../ids.js';

/** What a modal reads while loading: choices from the hosting API, through the domain's form queries. */
export interface ModalDeps {
  queries: FormQueries;
  /** The configured environments (HARBOR_ENVIRONMENTS), offered in every form's environment select. */
  environments?: readonly string[] | undefined;
}

/**
 * One element's state in `view.state.values` (text inputs carry `value`, selects
 * `selected_option`): the part of Bolt's ViewStateValue the modals read, shaped so
 * either type can be passed where the other is expected.
 */
export interface ViewStateValue {
  type: string;
  value?: string | null;
  selected_option?: { value: string; text: PlainTextElement } | null;
}

/** `view.state.values`: block id -> action id -> state. */
export type ViewStateValues = Record<string, Record<string, ViewStateValue>>;

/** What a change form's control fields asked (control-fields.ts), each only when given. */
export interface ControlAsk {
  /** When, as typed (`--at`). */
  at?: string;
  /** Break glass: why it cannot wait for the freeze to end (`--break-glass`). */
  breakGlass?: string;
  /** Guard, on the forms of a rollout of a build: a window, or none (`--guard`, `--no-guard`). */
  guard?: GuardAsk;
}

/** What a submission turns into: the engine request, or messages keyed by block id. */
export type SubmissionResult =
  /** `at`, `breakGlass` and `guard`: the form's When, Break glass and Guard fields (control-fields.ts), when filled. */
  | ({ ok: true } & ControlAsk & ChangeInput)
  | {
      ok: false;
      errors: Record<string, string>;
      /** What could be read despite the errors, so the operation's own checks can report the rest at once. */
      partial?: Record<string, unknown>;
    };

/** What every modal kind has: its submit label, its blocks, and where each field's problems show. */
export interface ModalShell {
  /** Submit button text, ≤ 24 characters (titles are in view.ts, the loading view needs them too). */
  submit: string;
  /** Reads what the modal needs from the API and returns its blocks (throws on API errors). */
  build(meta: ModalMetadata, deps: ModalDeps, values: ViewStateValues): Promise<KnownBlock[]>;
  /** The input block that shows a problem with `field`; undefined sends it to `fallbackBlock`. */
  blockFor(field: string, values?: ViewStateValues): string | undefined;
  /** An input block that always exists, for problems no other block owns. */
  fallbackBlock: string;
  /**
   * Throws a UserError when what the command named can never be submitted
   * (the typed command would refuse it): checked before the form opens.
   */
  refuseBeforeOpening?(meta: ModalMetadata, deps: ModalDeps): Promise<void>;
}

/** What a change form reads from a submission: the operation's input, or messages keyed by block id. */
export type ModalRead<I> =
  | { ok: true; input: I }
  | {
      ok: false;
      errors: Record<string, string>;
      /** What could be read despite the errors, so the operation's own checks can report the rest at once. */
      partial?: Record<string, unknown>;
    };

/**
 * A modal whose submission becomes a change through the engine. Which
 * operation is the table's (modals/index.ts), which checks that `I` is that
 * operation's input.
 */
export interface ModalDefinition<I = Record<string, unknown>> extends ModalShell {
  /** The engine input from the submitted values, or errors for what is missing or malformed. */
  read(meta: ModalMetadata, values: ViewStateValues): ModalRead<I>;
}

/** What a "Tail logs" submission asks for: which Vessel (and container) to follow. */
export interface TailRequest {
  environment: string;
  vessel: string;
  container?: string;
}

/** What a tail modal's submission turns into: the tail to start, or messages keyed by block id. */
export type TailSubmission = { ok: true; tail: TailRequest } | { ok: false; errors: Record<string, string> };

/** The modal that starts a live tail instead of a change. */
export interface TailModalDefinition extends ModalShell {
  read(meta: ModalMetadata, values: ViewStateValues): TailSubmission;
}

export type { FieldProblem };
