/** Every stale reason in words: the same sentences the core used to write, now drawn here. */
import { describe, expect, it } from '@jest/globals';
import type { StaleReason } from '../../../src/changes/change.js';
import { renderStaleReason } from '../../../src/slack/render/stale-reply.js';

const AT = Date.UTC(2026, 0, 1, 0, 30);

describe('renderStaleReason', () => {
  const cases: [StaleReason, string][] = [
    [
      {
        kind: 'unconfirmed',
        failure: { kind: 'earlier', text: 'The API timed out <after 30 s> & then closed.', state: 'unknown' },
      },
      'Already applied once; whether it took effect is not confirmed yet: The API timed out &lt;after 30 s&gt; &amp; then closed.',
    ],
    [{ kind: 'applying', by: 'U1' }, 'Already being applied by <@U1>; nothing more to do.'],
    [{ kind: 'busy' }, 'Already being applied (another click got there first); nothing more to do.'],
    [{ kind: 'succeeded', by: 'U2' }, 'Already done (applied by <@U2>); nothing more to do.'],
    [{ kind: 'succeeded' }, 'Already done; nothing more to do.'],
    [
      {
        kind: 'failed',
        failure: { kind: 'user', problem: 'not_found', text: 'Formation lobby has no vessel lobby-9' },
      },
      'This change already ran and failed: Formation lobby has no vessel lobby-9. Request it again to retry.',
    ],
    [
      { kind: 'failed' },
      'This change already ran and failed: see the message above. Request it again to retry.',
    ],
    [{ kind: 'rejected', by: 'U2' }, 'This change was rejected by <@U2>; nothing was applied.'],
    [{ kind: 'rejected' }, 'This change was rejected; nothing was applied.'],
    [{ kind: 'cancelled', by: 'U1' }, 'This change was cancelled by <@U1>; nothing was applied.'],
    [{ kind: 'cancelled' }, 'This change was cancelled; nothing was applied.'],
    [
      { kind: 'expired', at: AT },
      `This change expired <!date^${AT / 1000}^{date_short_pretty} {time}|2026-01-01 00:30 UTC> without being applied. Request it again if it is still needed.`,
    ],
    [{ kind: 'approved' }, 'This change is approved and about to be applied.'],
    [{ kind: 'waiting' }, 'This change is still waiting; nothing happened on this click.'],
  ];

  it.each(cases)('%j', (reason, text) => {
    expect(renderStaleReason(reason)).toBe(text);
  });

  it('drops anything from a user id that could break the markup', () => {
    expect(renderStaleReason({ kind: 'applying', by: 'U1>|<!channel' })).toBe(
      'Already being applied by <@U1channel>; nothing more to do.',
    );
  });
});
