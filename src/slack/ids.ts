/**
 * Every identifier Slack echoes back to us: button action ids, modal callback
 * ids and the metadata a modal carries. Listeners and renderers import these
 * so the two can never drift apart. Button values are small and point at
 * state the store holds: a change, release, tail or alert id, the command a
 * row button runs, a history page's cursor, a tail's or a release end's
 * short JSON (far under Slack's 2000-character limit); each listener reads
 * its value back and checks it.
 */
import type { SuggestionSource } from '../changes/form-queries.js';
import { FORM_KINDS } from '../operations/index.js';
import type { ModalKind } from './grammar/command.js';

/** Buttons on a change message (and in the approvals list). Their `value` is the change id. */
export const CHANGE_ACTIONS = {
  confirm: 'change.confirm',
  cancel: 'change.cancel',
  approve: 'change.approve',
  reject: 'change.reject',
} as const;

export type ChangeAction = keyof typeof CHANGE_ACTIONS;

/** The Reject button opens this modal, which asks the approver for the reason. */
export const REJECT_CALLBACK = 'change.reject.reason';
/** The reason input's block and action id in the Reject modal. */
export const REJECT_REASON_INPUT = 'reason';

/** What the Reject modal remembers (JSON in `private_metadata`). */
export interface RejectMetadata {
  changeId: string;
  /** The channel the Reject button was clicked in. */
  channel: string;
  /** Set when the button sat in the approvals list: that list is replaced after the rejection. */
  listResponseUrl?: string;
}

/** Modal submission callback ids, one per modal kind. */
export const MODAL_CALLBACKS = Object.fromEntries(
  FORM_KINDS.map((kind) => [kind, `modal.${kind}`]),
) as Record<ModalKind, string>;

/**
 * Inputs inside a modal whose change reloads the modal's choices (e.g. picking
 * a source branch reloads its images). These carry `dispatch_action: true`.
 */
export const MODAL_RELOAD_ACTION = 'modal.reload';

/** The message shortcut "Harbormaster: show / tail logs" (declared in the manifests). */
export const LOGS_SHORTCUT_CALLBACK = 'logs.from_message';

/**
 * Type-ahead selects (`external_select`): the action id names the list and its
 * scope (the prefix, the list name, a colon, then a branch or environment;
 * `#reload` last when the pick reloads the modal), so the options listener
 * needs nothing else from the payload, and a new scope is a new select to
 * Slack (a selection from the old list is dropped).
 */
export const SUGGEST_ACTION_PREFIX = 'suggest:';

/** Marks a type-ahead whose pick reloads the modal (its choice decides what the rest of the form lists). */
const RELOAD_SUFFIX = '#reload';

/** The action id of a type-ahead select over `source` in `scope` (`reload`: picking reloads the modal). */
export function suggestActionId(source: SuggestionSource, scope: string, reload = false): string {
  return `${SUGGEST_ACTION_PREFIX}${source}:${scope}${reload ? RELOAD_SUFFIX : ''}`;
}

/** Whether a block action comes from a type-ahead whose pick reloads the modal. */
export function reloadsModal(actionId: string): boolean {
  return actionId.startsWith(SUGGEST_ACTION_PREFIX) && actionId.endsWith(RELOAD_SUFFIX);
}

/** The list and scope a type-ahead action id names; undefined for any other id. */
export function readSuggestActionId(
  actionId: string,
): { source: SuggestionSource; scope: string } | undefined {
  const match = /^suggest:(images|vessels|formations|armadas|armadasets):(.+?)(?:#reload)?$/.exec(actionId);
  if (!match?.[1] || !match[2]) return undefined;
  return { source: match[1] as SuggestionSource, scope: match[2] };
}

/** What a modal remembers between opening and submission (JSON in `private_metadata`, < 3000 chars). */
export interface ModalMetadata {
  kind: ModalKind;
  /** Where the preview goes: the channel the command was typed in. */
  channel: string;
  /** The channel's name as the command payload gave it (policy rules may name channels). */
  channelName?: string;
  /** Post the preview in this thread (a release thread). */
  threadTs?: string;
  releaseId?: string;
  environment?: string;
  formation?: string;
  /** The vessel to preselect (the tail form opened from a message that names one). */
  vessel?: string;
  /** The region and region type the command named (the scheduling form preselects them). */
  region?: string;
  regionType?: string;
  /** The Armada or ArmadaSet the command named (the fleet forms preselect it). */
  fleet?: string;
  /** The source branch and `image:tag` to preselect (the promote form opened from a row of `images`). */
  branch?: string;
  image?: string;
}

/** Buttons of live tails. `stop`'s value is the tail id; `start`'s is JSON of TailStartValue. */
export const TAIL_ACTIONS = {
  stop: 'tail.stop',
  start: 'tail.start',
} as const;

/** What a "Tail logs" button (e.g. on a change result) carries: which Vessel, and the release thread if any. */
export interface TailStartValue {
  environment: string;
  vessel: string;
  container?: string;
  releaseId?: string;
}

/** The "End release" button on a release message (its value: the release id); it ends, not opens a modal. */
export const RELEASE_END_ACTION = 'release.end';

/**
 * The "Roll back release" button on a release message (its value: the release
 * id): posts one rollback preview of every applied change of it, in its thread.
 */
export const RELEASE_ROLLBACK_ACTION = 'release.rollback';

/** The history answer's paging button; its value is JSON of HistoryCursor. */
export const HISTORY_ACTIONS = { older: 'history.older' } as const;

/** Where the next history page starts: below this audit id, with the same filter. */
export interface HistoryCursor {
  before: number;
  filter?: string;
}

/**
 * Buttons on a release message (the common steps; every other change is in
 * its "Add a change…" select); their value is the release id.
 */
export const RELEASE_ACTIONS = {
  promote: 'release.promote',
  formationAdd: 'release.formation.add',
  formationRemove: 'release.formation.remove',
  tailLogs: 'release.tail',
} as const;

/**
 * The release message's "Add a change…" select: one option per change form,
 * each option's value the modal kind, a space and the release id (ids have no spaces).
 */
export const RELEASE_ADD_ACTION = 'release.add';

/** The answer to ending a release whose changes still wait: cancel them, or keep them, and end. */
export const RELEASE_END_CHOICE_ACTIONS = {
  cancel: 'release.end.cancel',
  keep: 'release.end.keep',
} as const;

/** What a RELEASE_END_CHOICE_ACTIONS button carries (JSON): the release, its version and the digest of the waiting changes shown. */
export interface ReleaseEndValue {
  release: string;
  version: number;
  digest: string;
}

/**
 * "Share in channel" on a private read answer. Its value is the command text
 * that produced the answer (e.g. `vessels dev`): Slack does not send an
 * ephemeral message's content back with a click, so sharing reads it again.
 */
export const SHARE_ACTION = 'read.share';

/**
 * Per-row actions on list and show answers (issue 18.9). The value is the
 * command text the button stands for (`vessel show dev lobby-1`, `logs dev
 * lobby-1`, `vessel delete dev lobby-1`, `promote game-server:1.2.0 from dev`):
 * a click runs it as if typed, through the same parser, authorization and
 * flows, so a forged value can do no more than typing it could.
 */
export const ROW_ACTIONS = {
  show: 'row.show',
  logs: 'row.logs',
  delete: 'row.delete',
  /** A formation's vessel: removed through `formation remove` (a direct delete is refused). */
  remove: 'row.remove',
  promote: 'row.promote',
  /** An applied change's Roll back: runs `rollback <change-id>`. */
  rollback: 'row.rollback',
} as const;

export type RowAction = keyof typeof ROW_ACTIONS;

/**
 * Buttons of a watch alert (issue 29); the value is the alert's id. Show and
 * Logs are row actions (the command text), so they run as if typed.
 */
export const ALERT_ACTIONS = {
  whatChanged: 'alert.what_changed',
  mute: 'alert.mute',
} as const;
