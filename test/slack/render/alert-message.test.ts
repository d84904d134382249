/**
 * Alert messages and the watch answers: what they say (kind, object,
 * environment, state, reason, the Site down; recovered and how long; polling
 * paused with the status and time), their buttons, and Slack's size limits
 * for inputs far beyond sane.
 */
import { describe, expect, it } from '@jest/globals';
import { ALERT_ACTIONS, ROW_ACTIONS } from '../../../src/slack/ids.js';
import { messageProblems } from '../../../src/slack/limits.js';
import { renderAlert } from '../../../src/slack/render/alert-message.js';
import { renderMuted, renderWatchAnswer, renderWhatChanged } from '../../../src/slack/render/watches.js';
import type { WatchAlert } from '../../../src/store/watch-types.js';
import { buttonsOf, makeChange, textOf } from './fixtures.js';

const T = Date.UTC(2026, 0, 1, 14, 2, 0);
const alert: WatchAlert = {
  id: 'a1',
  workspace: 'T1',
  channel: 'C1',
  env: 'prod',
  objectKey: 'Vessel/web-1',
  kind: 'Vessel',
  name: 'web-1',
  region: 'eu',
  state: 'Error',
  reason: 'CrashLoopBackOff',
  firstBadAt: T,
  openedAt: T + 60_000,
  drawn: 'none',
};
const LONG = `${'<&>'.repeat(2000)}`;

describe('the alert message', () => {
  it('names kind, object, environment, state and reason, with Show, Logs, What changed and Mute 1 h', () => {
    const msg = renderAlert(alert);
    expect(msg.text).toBe('Vessel web-1 in prod is Error: CrashLoopBackOff');
    expect(textOf(msg)).toContain('*Vessel `web-1`* in `prod` is *Error*: CrashLoopBackOff');
    expect(buttonsOf(msg).map((b) => [b.action_id, b.value])).toEqual([
      [ROW_ACTIONS.show, 'vessel show prod web-1'],
      [ROW_ACTIONS.logs, 'logs prod web-1'],
      [ALERT_ACTIONS.whatChanged, 'a1'],
      [ALERT_ACTIONS.mute, 'a1'],
    ]);
  });

  it('names the Site behind a Degraded fleet, and has no Logs for a fleet', () => {
    const msg = renderAlert({
      ...alert,
      kind: 'Armada',
      name: 'duel',
      state: 'Degraded',
      reason: 'could not sync',
      detail: 'site fra-02: Error, connection lost',
    });
    expect(textOf(msg)).toContain('site fra-02: Error, connection lost');
    expect(buttonsOf(msg).map((b) => b.value)).toEqual(['armada show prod duel', 'a1', 'a1']);
  });

  it('says it recovered and how long it lasted, without buttons', () => {
    const msg = renderAlert({
      ...alert,
      recoveredAt: T + 9 * 60_000,
      lastedMs: 6 * 60_000,
      drawn: 'open',
      messageTs: '1.2',
    });
    expect(msg.text).toBe('Vessel web-1 in prod recovered after 6 min');
    expect(textOf(msg)).toContain('recovered: it was *Error*: CrashLoopBackOff');
    expect(buttonsOf(msg)).toEqual([]);
  });

  it('keeps to Slack limits whatever it is fed', () => {
    const huge = { ...alert, name: LONG, reason: LONG, detail: LONG, state: LONG, env: LONG };
    expect(messageProblems(renderAlert(huge))).toEqual([]);
    expect(messageProblems(renderAlert({ ...huge, recoveredAt: T, lastedMs: 1 }))).toEqual([]);
    expect(messageProblems(renderMuted({ ...huge, mutedUntil: T }))).toEqual([]);
  });
});

describe('the watch answers', () => {
  it('says polling paused, with the status and when', () => {
    const msg = renderWatchAnswer(
      {
        kind: 'watches',
        intervalMs: 30_000,
        settleMs: 60_000,
        items: [
          {
            env: 'prod',
            since: T,
            by: 'U1',
            poller: { env: 'prod', failures: 1, pausedStatus: 503, pausedAt: T, resumeAt: T + 60_000 },
            polledBy: 'replica-2',
            open: [{ ...alert, messageTs: '1700000000.000100' }],
          },
        ],
      },
      '/harbor',
    );
    expect(textOf(msg)).toContain(
      'polling paused: the API answered 503 at <!date^1767276120^{date_short_pretty} {time}|2026-01-01 14:02 UTC>',
    );
    expect(textOf(msg)).toContain('by replica `replica-2`');
    expect(textOf(msg)).toContain('<https://slack.com/archives/C1/p1700000000000100|Vessel web-1: Error>');
  });

  it('answers watch with what the channel hears and what is left out', () => {
    const msg = renderWatchAnswer(
      {
        kind: 'watching',
        env: 'prod',
        added: true,
        covered: ['Armadas', 'ArmadaSets', 'Formations'],
        left: [
          {
            plural: 'Vessels',
            reason: 'policy rule `ops` lets only channel COPS list vessels in environment prod',
          },
        ],
        intervalMs: 30_000,
        settleMs: 60_000,
      },
      '/harbor',
    );
    expect(textOf(msg)).toContain('This channel now watches `prod`: Armadas, ArmadaSets and Formations.');
    expect(textOf(msg)).toContain('Vessels are left out: policy rule `ops`');
  });

  it('lists what changed, or says nothing did', () => {
    expect(renderWhatChanged({ alert, changes: [] }).text).toBe('No changes to Vessel web-1 in prod in 24 h');
    const msg = renderWhatChanged({ alert, changes: [makeChange({ status: 'succeeded' })] });
    expect(msg.text).toBe('What changed: Vessel web-1 in prod');
    expect(messageProblems(msg)).toEqual([]);
  });

  it('offers Roll back on each change that can be undone, and says which were rolled back (issues 28, 29)', () => {
    const undo = {
      kind: 'scheduling' as const,
      environment: 'prod',
      region: 'eu',
      type: 'baremetal',
      before: 'Packed',
      after: 'Distributed',
    };
    const open = makeChange({ id: 'chg-open', status: 'succeeded', undo });
    const undone = makeChange({ id: 'chg-done', status: 'succeeded', undo, rolledBackBy: 'chg-9' });
    const plain = makeChange({ id: 'chg-plain', status: 'succeeded' });
    const msg = renderWhatChanged({ alert, changes: [open, undone, plain] });
    expect(buttonsOf(msg).map((b) => [b.action_id, b.value])).toEqual([
      [ROW_ACTIONS.rollback, 'rollback chg-open'],
    ]);
    expect(textOf(msg)).toContain('change `chg-open`');
    expect(textOf(msg)).toContain('change `chg-done` · rolled back by change chg-9');
    expect(messageProblems(msg)).toEqual([]);
  });
});
