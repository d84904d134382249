/** Stored failures read back: current rows as they are, rows an older version wrote mapped to a kind. */
import { describe, expect, it } from '@jest/globals';
import { decodeFailure } from '../../src/changes/decode-failure.js';
import type { ChangeFailure } from '../../src/changes/failure.js';

const CONTEXT = { where: 'formation lobby in environment dev', since: 5000 };

describe('decodeFailure', () => {
  it('nothing stored is no failure', () => {
    expect(decodeFailure(undefined, CONTEXT)).toBeUndefined();
    expect(decodeFailure(null, CONTEXT)).toBeUndefined();
  });

  it('a current failure decodes as stored', () => {
    const stored: ChangeFailure = {
      kind: 'unconfirmed',
      answer: { kind: 'status', call: { method: 'PATCH', path: '/x' }, status: 502, explained: false },
      check: 'unreadable',
      where: 'vessel a in environment dev',
      since: 1,
      mayStillLand: false,
    };
    expect(decodeFailure(JSON.parse(JSON.stringify(stored)), CONTEXT)).toEqual(stored);
  });

  it.each<[string, unknown, ChangeFailure]>([
    [
      'an old user error',
      { message: 'No image game:9 in branch dev.', kind: 'not_found' },
      { kind: 'user', problem: 'not_found', text: 'No image game:9 in branch dev.' },
    ],
    [
      'an old API 404 (it had a status)',
      { message: 'Not found in the hosting API: gone.', kind: 'not_found', status: 404 },
      { kind: 'earlier', text: 'Not found in the hosting API: gone.', state: 'unchanged' },
    ],
    [
      "an old 'interrupted' failure, which nothing writes any more",
      { message: 'Interrupted; nothing was changed.', kind: 'interrupted' },
      { kind: 'earlier', text: 'Interrupted; nothing was changed.', state: 'unchanged' },
    ],
    [
      'an old internal error (its id is all the new shape needs)',
      { message: 'Harbormaster hit an internal error (id ab12).', kind: 'internal', errorId: 'ab12' },
      { kind: 'internal', errorId: 'ab12' },
    ],
    [
      'an old internal error without an id',
      { message: 'Something broke.', kind: 'internal' },
      { kind: 'earlier', text: 'Something broke.', state: 'unknown' },
    ],
    [
      'an old rejection',
      { message: 'Rejected; nothing was applied.', kind: 'rejected', by: 'U1', reason: 'not now' },
      { kind: 'rejected', by: 'U1', reason: 'not now' },
    ],
    [
      'an old cancellation',
      { message: 'Cancelled; nothing was applied.', kind: 'cancelled', by: 'U2' },
      { kind: 'cancelled', by: 'U2' },
    ],
    [
      'an old unconfirmed apply whose write may still land',
      {
        message: 'Could not confirm…',
        kind: 'unconfirmed',
        since: 10,
        mayStillLand: true,
        answer: 'the API did not answer in time',
      },
      {
        kind: 'unconfirmed',
        answer: { kind: 'earlier', text: 'the API did not answer in time' },
        check: 'not_seen',
        where: CONTEXT.where,
        since: 10,
        mayStillLand: true,
      },
    ],
    [
      'an old unconfirmed apply without its fields',
      { message: 'Could not confirm…', kind: 'unconfirmed' },
      {
        kind: 'unconfirmed',
        answer: { kind: 'earlier', text: 'the API answered unclearly' },
        check: 'unreadable',
        where: CONTEXT.where,
        since: CONTEXT.since,
        mayStillLand: false,
      },
    ],
    [
      'something unreadable',
      42,
      { kind: 'earlier', text: 'The change failed for an unknown reason.', state: 'unknown' },
    ],
  ])('%s', (_what, stored, expected) => {
    expect(decodeFailure(stored, CONTEXT)).toEqual(expected);
  });
});
