/**
 * A freeze in words, for refusals at request, Confirm, Approve and apply.
 * Ids and instants are written by the caller's PolicyNames (on Slack a
 * mention and a date token, so each reader sees their own time zone).
 */
import type { PolicyNames } from '../policy/words.js';
import type { Freeze } from './types.js';

/** Who froze `f`, when, why and until when: "<@U1> froze prod <date> until <date> (reason: ...)". */
export function describeFreeze(f: Freeze, names: PolicyNames): string {
  const reason = f.reason ? ` Reason: ${f.reason}.` : '';
  if (f.kind === 'window') {
    return `Environment ${f.env} is in the policy's freeze window \`${f.name}\` (${f.schedule}), from ${names.time(f.since)} until ${names.time(f.until)}.${reason}`;
  }
  const until =
    f.until !== undefined ? `until ${names.time(f.until)}` : 'until someone unfreezes it (no end was given)';
  return `Environment ${f.env} was frozen by ${names.user(f.by)} ${names.time(f.since)}, ${until}.${reason}`;
}

/**
 * The refusal of a change a freeze stops: the freeze, what still works, and
 * how to go through anyway when the policy names break-glass approvers.
 */
export function freezeRefusal(f: Freeze, names: PolicyNames, breakGlass: boolean): string {
  const way = breakGlass
    ? ' To change it anyway, request it again with `--break-glass <reason>`: the policy’s break-glass approvers must approve it.'
    : ' The policy names no break-glass approvers, so no change there can go through until the freeze ends.';
  return `Refused: ${describeFreeze(f, names)} Changes there are refused until then; reads, watches and rollbacks of changes applied before the freeze still work.${way}`;
}
