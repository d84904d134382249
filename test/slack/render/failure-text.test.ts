/** Every kind of change failure in words: the one place that writes them (slack/render/failure-text.ts). */
import { describe, expect, it } from '@jest/globals';
import { apiState, type ChangeFailure } from '../../../src/changes/failure.js';
import { failureText, saysNothingChanged } from '../../../src/slack/render/failure-text.js';

const PATCH = { method: 'PATCH', path: '/api/formation/v1/environments/dev/formations/lobby' };
const WHERE = 'formation lobby in environment dev';

type Example<K extends ChangeFailure['kind']> = {
  failure: Extract<ChangeFailure, { kind: K }>;
  text: string;
  state: 'unchanged' | 'unknown';
};

/** One example per kind; the mapped type fails to compile when a kind is added without one. */
const EXAMPLES: { [K in ChangeFailure['kind']]: Example<K> } = {
  frozen: {
    failure: {
      kind: 'frozen',
      freeze: {
        kind: 'manual',
        id: 'f1',
        env: 'prod',
        by: 'U1',
        since: 0,
        until: 7_200_000,
        reason: 'final',
        channel: 'C1',
      },
    },
    text: 'Refused at its time: Environment prod was frozen by user U1 1970-01-01 00:00 UTC, until 1970-01-01 02:00 UTC. Reason: final. So nothing was applied; request it again once the freeze ends.',
    state: 'unchanged',
  },
  missed: {
    failure: { kind: 'missed', scheduledAt: 0, lateMs: 900_000, graceMs: 600_000 },
    text: 'Missed: no replica of Harbormaster was running at its time, and the first to start came 15 min after it, past the 10 min a scheduled change may still apply late (HARBOR_SCHEDULE_GRACE_S); nothing was applied. Request it again if it is still needed.',
    state: 'unchanged',
  },
  user: {
    failure: { kind: 'user', problem: 'not_found', text: 'No image game:9 in branch dev.' },
    text: 'No image game:9 in branch dev.',
    state: 'unchanged',
  },
  conflict: {
    failure: { kind: 'conflict', object: 'Formation', name: 'lobby', attempts: 3 },
    text: 'The Formation lobby kept changing while we tried to update it (3 attempts); nothing was changed. Try again.',
    state: 'unchanged',
  },
  unreachable: {
    failure: {
      kind: 'unreachable',
      call: PATCH,
      detail: { reason: 'NetworkError', text: 'network error: ECONNREFUSED' },
    },
    text: 'The hosting API is unreachable (NetworkError: network error: ECONNREFUSED); nothing was changed.',
    state: 'unchanged',
  },
  unauthorized: {
    failure: { kind: 'unauthorized', call: PATCH },
    text: `The hosting API did not accept Harbormaster's credentials (PATCH ${PATCH.path}); ask an admin to check GAMEFABRIC_TOKEN or the service-account login.`,
    state: 'unchanged',
  },
  forbidden: {
    failure: {
      kind: 'forbidden',
      call: PATCH,
      detail: { reason: 'Forbidden', text: 'no permission' },
      permission: {
        group: 'formation',
        resource: 'formations',
        verb: 'patch',
        scope: { kind: 'environment', name: 'dev' },
      },
    },
    text: 'The hosting API refused: the service account lacks a permission (Forbidden: no permission). Ask an admin to grant the service account verb `patch` on `formations` (API group formation) in environment dev.',
    state: 'unchanged',
  },
  not_found: {
    failure: {
      kind: 'not_found',
      call: PATCH,
      detail: { reason: 'NotFound', text: 'formations "lobby" not found' },
    },
    text: 'Not found in the hosting API: NotFound: formations "lobby" not found.',
    state: 'unchanged',
  },
  api_rejected: {
    failure: {
      kind: 'api_rejected',
      call: PATCH,
      status: 422,
      detail: { reason: 'Invalid', text: 'spec.replicas: must be ≥ 0' },
    },
    text: 'The hosting API rejected the change: Invalid: spec.replicas: must be ≥ 0.',
    state: 'unchanged',
  },
  rate_limited: {
    failure: { kind: 'rate_limited', call: PATCH },
    text: 'The hosting API is rate-limiting us; nothing was changed. Try again in a minute.',
    state: 'unchanged',
  },
  api_failed: {
    failure: { kind: 'api_failed', call: PATCH, status: 500, detail: { text: 'upstream exploded' } },
    text: 'The hosting API failed (500, upstream exploded); nothing was changed. Try again in a minute; if it keeps failing, the hosting API may be down.',
    state: 'unchanged',
  },
  store_unavailable: {
    failure: { kind: 'store_unavailable', errorId: 'ab12cd34' },
    text: "The bot's database is unavailable just now (error id ab12cd34), so this could not be recorded or checked. Try again in a minute; if it persists, tell whoever runs Harbormaster (the log has the details under that id).",
    state: 'unknown',
  },
  internal: {
    failure: { kind: 'internal', errorId: 'ab12cd34' },
    text: "Harbormaster hit an internal error (id ab12cd34). The bot's log has the details under that id.",
    state: 'unknown',
  },
  rejected: {
    failure: { kind: 'rejected', by: 'U1', reason: 'not during the tournament' },
    text: 'Rejected; nothing was applied.',
    state: 'unchanged',
  },
  cancelled: {
    failure: { kind: 'cancelled', by: 'U1' },
    text: 'Cancelled; nothing was applied.',
    state: 'unchanged',
  },
  unconfirmed: {
    failure: {
      kind: 'unconfirmed',
      answer: { kind: 'timeout', call: PATCH },
      check: 'not_seen',
      where: WHERE,
      since: 0,
      mayStillLand: true,
    },
    text: `Could not confirm whether this took effect: the API did not answer PATCH ${PATCH.path} in time, and a read does not show the change yet (the request may still land). Look at ${WHERE} before retrying; Harbormaster keeps checking and will update this message.`,
    state: 'unknown',
  },
  not_applied: {
    failure: {
      kind: 'not_applied',
      answer: { kind: 'status', call: PATCH, status: 502, explained: false },
      where: WHERE,
    },
    text: `The API answered PATCH ${PATCH.path} with 502 and no explanation. Harbormaster then read ${WHERE}: the change is not there, so nothing was changed. Request it again to retry.`,
    state: 'unchanged',
  },
  never_landed: {
    failure: {
      kind: 'never_landed',
      answer: { kind: 'connection_broke', call: PATCH },
      where: WHERE,
      overMs: 600_000,
    },
    text: `The connection broke during PATCH ${PATCH.path}. Reads of ${WHERE} over the following 10 min never showed the change, so nothing was changed. Request it again to retry.`,
    state: 'unchanged',
  },
  earlier: {
    failure: { kind: 'earlier', text: 'Words an older version stored.', state: 'unknown' },
    text: 'Words an older version stored.',
    state: 'unknown',
  },
};

describe('failureText', () => {
  it.each(Object.entries(EXAMPLES))('%s', (_kind, example) => {
    const { failure, text, state } = example as Example<ChangeFailure['kind']>;
    expect(failureText(failure)).toBe(text);
    expect(apiState(failure)).toBe(state);
    // The renderer adds "Nothing was changed." only where its words do not say so already.
    if (saysNothingChanged(failure) && failure.kind !== 'earlier')
      expect(text).toMatch(/nothing was (changed|applied)/);
  });

  it('each unclear answer in words', () => {
    const words = (answer: Extract<ChangeFailure, { kind: 'not_applied' }>['answer']) =>
      failureText({ kind: 'not_applied', answer, where: WHERE }).split(' Harbormaster then read')[0];
    expect(words({ kind: 'unreadable', call: PATCH })).toBe(
      `The API accepted PATCH ${PATCH.path} but its answer could not be read.`,
    );
    expect(words({ kind: 'status', call: PATCH, status: 500, explained: true })).toBe(
      `The API answered PATCH ${PATCH.path} with 500.`,
    );
    expect(words({ kind: 'interrupted' })).toBe(
      'The replica applying it stopped before the hosting API answered.',
    );
    expect(words({ kind: 'unexpected' })).toBe('The apply stopped on an unexpected error.');
    expect(words({ kind: 'unexpected', errorId: 'ef56' })).toBe(
      "Harbormaster hit an internal error (id ef56). The bot's log has the details under that id.",
    );
  });

  it('a UserError gets "Nothing was changed." added unless its own words say what did not happen', () => {
    const user = (problem: 'validation' | 'not_found' | 'world_moved' | 'noop'): ChangeFailure => ({
      kind: 'user',
      problem,
      text: 'x',
    });
    expect(saysNothingChanged(user('validation'))).toBe(false);
    expect(saysNothingChanged(user('not_found'))).toBe(false);
    expect(saysNothingChanged(user('world_moved'))).toBe(true);
    expect(saysNothingChanged(user('noop'))).toBe(true);
  });

  it('the API detail without a reason, and a reason without text', () => {
    const failure = (detail: { reason?: string; text: string }): ChangeFailure => ({
      kind: 'not_found',
      call: PATCH,
      detail,
    });
    expect(failureText(failure({ text: 'gone' }))).toBe('Not found in the hosting API: gone.');
    expect(failureText(failure({ reason: 'NotFound', text: '' }))).toBe(
      'Not found in the hosting API: NotFound.',
    );
  });

  it('a forbidden call whose path names no permission asks for it in general', () => {
    expect(failureText({ kind: 'forbidden', call: PATCH, detail: { text: 'no' } })).toBe(
      'The hosting API refused: the service account lacks a permission (no). Ask an admin to grant it.',
    );
  });
});
