/**
 * What the `/harbor` grammar turns text into: a typed Command, or a usage
 * message for the closest form. The parser is total: every input string maps
 * to one of the two, never an exception. Commands are platform-neutral data;
 * the listeners decide what each one does.
 */

import type { GuardAsk } from '../../changes/guard-choice.js';
import type { ChangeInput } from '../../changes/requests/index.js';
import type { ChangeFormKind, FormKind, ShownField, ShowOperation } from '../../operations/index.js';
import type { ReleaseOption } from '../../releases/releases.js';

/** Modals whose submission becomes a change through the engine (src/operations/catalogue.ts). */
export type ChangeModalKind = ChangeFormKind;

/**
 * Modals a command or a release thread's button can open: the change modals,
 * and `logs.follow`, which starts a live tail. `environment`, `formation`,
 * `region` and `regionType` prefill what the command named.
 */
export type ModalKind = FormKind;

/**
 * A show read (`formation show dev lobby`): its operation as the kind, the
 * environment, and the name of what it shows in the target field its
 * descriptor's `shows` names (`formation`). Derived from the catalogue, so a
 * new show read needs no line here.
 */
export type ShowCommand = {
  [K in ShowOperation]: { kind: K; environment: string } & { [F in ShownField<K>]: string };
}[ShowOperation];

export type Command =
  | { kind: 'help'; topic?: string }
  | { kind: 'images'; branch: string; ref?: string }
  | { kind: 'vessels'; environment: string }
  | { kind: 'vessel.show'; environment: string; vessel: string }
  | { kind: 'formations'; environment: string }
  | { kind: 'regions'; environment: string }
  | { kind: 'armadas'; environment: string }
  | { kind: 'sites'; region?: string }
  | ShowCommand
  | { kind: 'approvals' }
  /** Watches (issue 29): subscribe this channel to an environment's trouble, list, end. */
  | { kind: 'watch'; environment: string }
  | { kind: 'watches' }
  | { kind: 'unwatch'; environment: string }
  /** Freezes (issue 41): hold every change to an environment, end that, list them. */
  | { kind: 'freeze'; environment: string; forMs?: number; until?: number; reason?: string }
  | { kind: 'unfreeze'; environment: string }
  | { kind: 'freezes' }
  /** Scheduled changes not started yet (issue 41), of one environment or all. */
  | { kind: 'scheduled'; environment?: string }
  /** Recent changes from the audit log, of everything or of one environment / target name. */
  | { kind: 'history'; filter?: string }
  /**
   * A change through the engine: an operation and its input, typed by the
   * operation's schema (changes/requests/), and which release it joins:
   * `--release <title-or-id>` or `--no-release` (release-flag.ts); unsaid,
   * the channel's open release.
   */
  | ({
      kind: 'change';
      release?: ReleaseOption;
      /** `--break-glass <reason>`: through a freeze in force, with the break-glass approvers' approval. */
      breakGlass?: string;
      /** `--at <time>` as typed: the change applies then (the domain reads it: changes/schedule/when.ts). */
      at?: string;
      /** `--guard <duration>` or `--no-guard` (issue 42): asked of the policy's guard. */
      guard?: GuardAsk;
    } & ChangeInput)
  | {
      kind: 'modal';
      modal: ModalKind;
      /** As on a change: the release the form's change joins. */
      release?: ReleaseOption;
      environment?: string;
      formation?: string;
      region?: string;
      regionType?: string;
      /** The Armada or ArmadaSet the command named. */
      fleet?: string;
    }
  /** The latest lines of a Vessel's log, or a live tail with `--follow`. `lines` defaults to 50. */
  | {
      kind: 'logs';
      environment: string;
      vessel: string;
      follow: boolean;
      lines: number;
      container?: string;
    }
  | { kind: 'release.start'; title: string }
  | { kind: 'release.end'; ref: string };

/** A usage answer: what was wrong, the form(s) the user probably meant, and an example. */
export interface Usage {
  /** One sentence naming the problem, e.g. "`promote` needs `from <source-branch>`." */
  problem: string;
  /** The grammar form(s) of the closest command, e.g. "/harbor promote <image>:<tag> from <source-branch> to <target-branch>". */
  forms: string[];
  /** A working example, e.g. "/harbor promote game-server:1.2.0 from dev to prod". */
  example?: string;
  /** "Did you mean `vessels`?" when the first word looks like a typo of a command. */
  suggestion?: string;
}

export type ParseResult = { ok: true; command: Command } | { ok: false; usage: Usage };
