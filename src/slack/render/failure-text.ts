/**
 * The words for a change's failure. Failures arrive as data (changes/failure.ts);
 * this is the one place that turns each kind into a sentence, as plain text
 * (callers escape it for mrkdwn). A UserError's text and the API's own
 * explanation are quoted as they came.
 */
import { answerWords } from '../../changes/answer-words.js';
import type { ApiDetail, ChangeFailure, FailedCall, NeededPermission } from '../../changes/failure.js';
import { formatSpan } from '../../format/duration.js';
import { describeFreeze } from '../../freezes/words.js';
import { PLAIN_NAMES } from '../../policy/words.js';

/** What went wrong, for users. */
export function failureText(failure: ChangeFailure): string {
  switch (failure.kind) {
    case 'user':
      return failure.text;
    case 'conflict':
      return `The ${failure.object} ${failure.name} kept changing while we tried to update it (${failure.attempts} attempts); nothing was changed. Try again.`;
    case 'unreachable':
      return `The hosting API is unreachable (${detailText(failure.detail)}); nothing was changed.`;
    case 'unauthorized':
      return `The hosting API did not accept Harbormaster's credentials (${callText(failure.call)}); ask an admin to check GAMEFABRIC_TOKEN or the service-account login.`;
    case 'forbidden': {
      const ask = failure.permission
        ? `Ask an admin to grant the service account ${permissionText(failure.permission)}.`
        : 'Ask an admin to grant it.';
      return `The hosting API refused: the service account lacks a permission (${detailText(failure.detail)}). ${ask}`;
    }
    case 'not_found':
      return `Not found in the hosting API: ${detailText(failure.detail)}.`;
    case 'api_rejected':
      // A refused read (a GET) changed nothing and was no change: it is "the request".
      return `The hosting API rejected the ${failure.call.method === 'GET' ? 'request' : 'change'}: ${detailText(failure.detail)}.`;
    case 'rate_limited':
      return 'The hosting API is rate-limiting us; nothing was changed. Try again in a minute.';
    case 'api_failed':
      // A write without a clear answer is settled as unconfirmed before it gets here: this one changed nothing.
      return `The hosting API failed (${failure.status}, ${detailText(failure.detail)}); nothing was changed. Try again in a minute; if it keeps failing, the hosting API may be down.`;
    case 'store_unavailable':
      return `The bot's database is unavailable just now (error id ${failure.errorId}), so this could not be recorded or checked. Try again in a minute; if it persists, tell whoever runs Harbormaster (the log has the details under that id).`;
    case 'internal':
      return internalText(failure.errorId);
    case 'rejected':
      return 'Rejected; nothing was applied.';
    case 'cancelled':
      return 'Cancelled; nothing was applied.';
    case 'unconfirmed': {
      const check =
        failure.check === 'unreadable'
          ? 'the API could not be read to check'
          : 'a read does not show the change yet (the request may still land)';
      return `Could not confirm whether this took effect: ${answerWords(failure.answer)}, and ${check}. Look at ${failure.where} before retrying; Harbormaster keeps checking and will update this message.`;
    }
    case 'not_applied': {
      // An unexpected error is named by its log id, as when it stands alone.
      const first =
        failure.answer.kind === 'unexpected' && failure.answer.errorId
          ? internalText(failure.answer.errorId)
          : `${capitalize(answerWords(failure.answer))}.`;
      return `${first} Harbormaster then read ${failure.where}: the change is not there, so nothing was changed. Request it again to retry.`;
    }
    case 'never_landed':
      return `${capitalize(answerWords(failure.answer))}. Reads of ${failure.where} over the following ${formatSpan(failure.overMs)} never showed the change, so nothing was changed. Request it again to retry.`;
    case 'frozen':
      return `Refused at its time: ${describeFreeze(failure.freeze, PLAIN_NAMES)} So nothing was applied; request it again once the freeze ends.`;
    case 'missed':
      return `Missed: no replica of Harbormaster was running at its time, and the first to start came ${formatSpan(failure.lateMs)} after it, past the ${formatSpan(failure.graceMs)} a scheduled change may still apply late (HARBOR_SCHEDULE_GRACE_S); nothing was applied. Request it again if it is still needed.`;
    case 'earlier':
      return failure.text;
  }
}

/**
 * UserErrors whose own words already say nothing happened: the world moved
 * ("…; nothing was promoted."), there was nothing to do, it already exists,
 * it is over, or Slack refused before anything was sent.
 */
const USER_PROBLEMS_SAID: ReadonlySet<string> = new Set([
  'world_moved',
  'noop',
  'duplicate',
  'stale',
  'slack',
]);

/**
 * Whether `failureText` already tells the reader the API was left as it was,
 * so a renderer adding "Nothing was changed." would repeat it.
 */
export function saysNothingChanged(failure: ChangeFailure): boolean {
  switch (failure.kind) {
    case 'conflict':
    case 'unreachable':
    case 'rate_limited':
    case 'not_applied':
    case 'never_landed':
    case 'rejected':
    case 'cancelled':
    case 'missed':
    case 'frozen':
    // Stored by an older version with its own words: shown as they were.
    case 'earlier':
      return true;
    case 'user':
      return USER_PROBLEMS_SAID.has(failure.problem);
    default:
      return false;
  }
}

function internalText(errorId: string): string {
  return `Harbormaster hit an internal error (id ${errorId}). The bot's log has the details under that id.`;
}

function detailText(detail: ApiDetail): string {
  if (!detail.reason) return detail.text;
  return detail.text ? `${detail.reason}: ${detail.text}` : detail.reason;
}

function callText(call: FailedCall): string {
  return `${call.method} ${call.path}`;
}

/** "verb `create` on `imagepromotions` (API group container) in branch prod", in the platform's terms. */
function permissionText(p: NeededPermission): string {
  const where = p.scope ? ` in ${p.scope.kind} ${p.scope.name}` : '';
  return `verb \`${p.verb}\` on \`${p.resource}\` (API group ${p.group})${where}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Who rejected or cancelled the change, when its failure says. */
export function closedBy(change: { error?: ChangeFailure }): string | undefined {
  const e = change.error;
  return e && (e.kind === 'rejected' || e.kind === 'cancelled') ? e.by : undefined;
}

/** The reason a rejecting approver gave, as they typed it. */
export function rejectionReason(change: { error?: ChangeFailure }): string | undefined {
  return change.error?.kind === 'rejected' ? change.error.reason : undefined;
}
