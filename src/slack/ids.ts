/**
 * Every identifier Slack echoes back to us: button action ids, modal callback
 * ids and the metadata a modal carries. Listeners and renderers import these
 * so the two can never drift apart. Button values hold only a change id (far
 * under Slack's 2000-character limit); all state lives in the store.
 */
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
export const MODAL_CALLBACKS: Record<ModalKind, string> = {
  promote: 'modal.promote',
  'vessel.create': 'modal.vessel.create',
  'formation.add': 'modal.formation.add',
  'formation.remove': 'modal.formation.remove',
  'region.create': 'modal.region.create',
  'region.scheduling': 'modal.region.scheduling',
  'logs.follow': 'modal.logs.follow',
};

/**
 * Inputs inside a modal whose change reloads the modal's choices (e.g. picking
 * a source branch reloads its images). These carry `dispatch_action: true`.
 */
export const MODAL_RELOAD_ACTION = 'modal.reload';

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
  /** The region and region type the command named (the scheduling form preselects them). */
  region?: string;
  regionType?: string;
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

/** The history answer's paging button; its value is JSON of HistoryCursor. */
export const HISTORY_ACTIONS = { older: 'history.older' } as const;

/** Where the next history page starts: below this audit id, with the same filter. */
export interface HistoryCursor {
  before: number;
  filter?: string;
}

/** Buttons on a release message; their value is the release id. */
export const RELEASE_ACTIONS = {
  promote: 'release.promote',
  formationAdd: 'release.formation.add',
  formationRemove: 'release.formation.remove',
  tailLogs: 'release.tail',
} as const;

/**
 * "Share in channel" on a private read answer. Its value is the command text
 * that produced the answer (e.g. `vessels dev`): Slack does not send an
 * ephemeral message's content back with a click, so sharing reads it again.
 */
export const SHARE_ACTION = 'read.share';
