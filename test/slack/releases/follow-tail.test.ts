/**
 * "Tail logs" on a follow-up: offered for a Vessel the change created once it
 * is placed (or the watch gave up), carrying the release id when the change
 * came from a release thread; never for removals, failures or progress.
 */
import { describe, expect, it } from '@jest/globals';
import type { FollowEvent } from '../../../src/changes/operation.js';
import { TAIL_ACTIONS } from '../../../src/slack/ids.js';
import { messageProblems } from '../../../src/slack/limits.js';
import { renderFollowEvent, tailOffer } from '../../../src/slack/render/follow.js';
import { buttonsOf, makeChange } from '../render/fixtures.js';

const vessel = { environment: 'dev', name: 'lobby-3' };
const scheduled: FollowEvent = { kind: 'done', message: 'Vessel lobby-3 is placed (now Scheduled)', vessel };
const added = makeChange({
  operation: 'formation.add',
  status: 'succeeded',
  origin: { workspace: 'T1', channel: 'C1', threadTs: '1.1', releaseId: 'rel-1' },
});

describe('tailOffer', () => {
  it('offers the created vessel, in its release', () => {
    expect(tailOffer(added, scheduled)).toEqual({
      environment: 'dev',
      vessel: 'lobby-3',
      releaseId: 'rel-1',
    });
    expect(tailOffer(added, { ...scheduled, kind: 'timeout' })).toMatchObject({ vessel: 'lobby-3' });
    const plain = makeChange({ operation: 'vessel.create', status: 'succeeded' });
    expect(tailOffer(plain, scheduled)).toEqual({ environment: 'dev', vessel: 'lobby-3' });
  });

  it('offers nothing for removals, failures, progress or events about no vessel', () => {
    expect(tailOffer({ ...added, operation: 'formation.remove' }, scheduled)).toBeUndefined();
    expect(tailOffer(added, { ...scheduled, kind: 'failed' })).toBeUndefined();
    expect(tailOffer(added, { ...scheduled, kind: 'progress' })).toBeUndefined();
    expect(tailOffer(added, { kind: 'done', message: 'done' })).toBeUndefined();
  });
});

describe('renderFollowEvent with a tail offer', () => {
  it('adds a "Tail logs" button whose value is the TailStartValue', () => {
    const offer = tailOffer(added, scheduled);
    const msg = renderFollowEvent(scheduled, offer);
    const [button] = buttonsOf(msg);
    expect(button?.action_id).toBe(TAIL_ACTIONS.start);
    expect(button?.text.text).toBe('Tail logs');
    expect(JSON.parse(button?.value ?? '')).toEqual(offer);
    expect(messageProblems(msg)).toEqual([]);
    expect(buttonsOf(renderFollowEvent(scheduled))).toEqual([]);
  });

  it('leaves the button out rather than send a value over Slack’s limit', () => {
    const huge = { environment: 'dev', vessel: 'v'.repeat(3000) };
    const msg = renderFollowEvent(scheduled, huge);
    expect(buttonsOf(msg)).toEqual([]);
    expect(messageProblems(msg)).toEqual([]);
  });
});
