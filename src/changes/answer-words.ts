/**
 * How an unclear apply was answered, in words. Two places say it: a change's
 * Result when a later read confirms it (results are words the domain writes,
 * like previews), and the failure renderer; both use this one account.
 */
import type { UnclearAnswer } from './failure.js';

/** A short account of how the API answered ("the API answered PATCH /x with 502"), lower case. */
export function answerWords(answer: UnclearAnswer): string {
  switch (answer.kind) {
    case 'unreadable':
      return `the API accepted ${call(answer.call)} but its answer could not be read`;
    case 'timeout':
      return `the API did not answer ${call(answer.call)} in time`;
    case 'connection_broke':
      return `the connection broke during ${call(answer.call)}`;
    case 'status':
      return `the API answered ${call(answer.call)} with ${answer.status}${answer.explained ? '' : ' and no explanation'}`;
    case 'unexpected':
      return 'the apply stopped on an unexpected error';
    case 'interrupted':
      return 'the replica applying it stopped before the hosting API answered';
    case 'earlier':
      return answer.text;
  }
}

function call(c: { method: string; path: string }): string {
  return `${c.method} ${c.path}`;
}
