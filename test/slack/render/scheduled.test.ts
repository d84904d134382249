/**
 * What scheduled changes look like (issue 41): the preview's time and the
 * approvals warning, the Scheduled message with Cancel only, late and missed,
 * the scheduled list and the Home tab's freezes and scheduled changes, each
 * within Slack's limits, also for huge inputs.
 */
import { describe, expect, it } from '@jest/globals';
import type { Freeze } from '../../../src/freezes/types.js';
import { renderHome } from '../../../src/slack/home/render-home.js';
import { CHANGE_ACTIONS } from '../../../src/slack/ids.js';
import { messageProblems, viewProblems } from '../../../src/slack/limits.js';
import { renderChange } from '../../../src/slack/render/change-message.js';
import { renderScheduledList } from '../../../src/slack/render/scheduled-list.js';
import { APPROVAL, buttonsOf, MINUTE, makeChange, NOW, textOf } from './fixtures.js';

const AT = NOW + 120 * MINUTE;
const token = (ms: number) => `<!date^${Math.floor(ms / 1000)}^`;
const FREEZE: Freeze = {
  kind: 'manual',
  id: 'f1',
  env: 'prod',
  by: 'U_FZ',
  since: NOW,
  until: NOW + 180 * MINUTE,
  reason: 'tournament final',
  channel: 'C1',
};

describe('scheduled change messages', () => {
  it('the preview says when it applies, Confirm now', () => {
    const m = renderChange(makeChange({ scheduledAt: AT }), NOW);
    expect(m.text).toContain('(scheduled)');
    expect(textOf(m)).toContain(`*Scheduled:* applies ${token(AT)}`);
    expect(textOf(m)).toContain('Confirm now');
    expect(textOf(m)).not.toContain('Approvals expire at');
    expect(messageProblems(m)).toEqual([]);
  });

  it('the preview warns when approvals expire before its time', () => {
    const m = renderChange(
      makeChange({
        status: 'awaiting_approval',
        requirement: APPROVAL,
        scheduledAt: AT,
        expiresAt: NOW + 60 * MINUTE,
      }),
      NOW,
    );
    expect(textOf(m)).toContain(`Approvals expire at ${token(NOW + 60 * MINUTE)}`);
    expect(textOf(m)).toContain('before its time, as the policy says');
  });

  it('once confirmed it is Scheduled, with Cancel alone', () => {
    const m = renderChange(makeChange({ status: 'approved', scheduledAt: AT, confirmedBy: 'U_REQ' }), NOW);
    expect(m.text).toMatch(/^Scheduled: /);
    expect(buttonsOf(m).map((b) => b.action_id)).toEqual([CHANGE_ACTIONS.cancel]);
    expect(messageProblems(m)).toEqual([]);
  });

  it('applied late says how late; on time it says only its time', () => {
    const late = renderChange(
      makeChange({
        status: 'succeeded',
        scheduledAt: AT,
        appliedAt: AT + 7 * MINUTE,
        updatedAt: AT + 7 * MINUTE,
      }),
      NOW,
    );
    expect(textOf(late)).toContain(`scheduled for ${token(AT)}`);
    expect(textOf(late)).toContain('started 7 min late (no replica was running at its time)');
    const onTime = renderChange(
      makeChange({ status: 'succeeded', scheduledAt: AT, appliedAt: AT + 3000 }),
      NOW,
    );
    expect(textOf(onTime)).toContain(`scheduled for ${token(AT)}`);
    expect(textOf(onTime)).not.toContain('late');
  });

  it('missed, and refused by a freeze at its time', () => {
    const missed = renderChange(
      makeChange({
        status: 'expired',
        scheduledAt: AT,
        error: { kind: 'missed', scheduledAt: AT, lateMs: 3_600_000, graceMs: 600_000 },
      }),
      NOW,
    );
    expect(missed.text).toMatch(/^Missed: /);
    expect(textOf(missed)).toContain('the first to start came 1 h after it');
    const frozen = renderChange(
      makeChange({ status: 'failed', scheduledAt: AT, error: { kind: 'frozen', freeze: FREEZE } }),
      NOW,
    );
    expect(textOf(frozen)).toContain(':snowflake: Refused at its time: `prod`: frozen by <@U_FZ>');
    expect(textOf(frozen)).toContain('tournament final');
  });
});

describe('the scheduled list and the Home tab', () => {
  const waiting = (i: number) =>
    makeChange({
      id: `chg-${i}`,
      status: 'approved',
      scheduledAt: AT + i * MINUTE,
      preview: { ...makeChange().preview, summary: `${'x'.repeat(3000)} ${i}` },
    });

  it('lists each with its time and Cancel, within the limits for 200', () => {
    const one = renderScheduledList([waiting(1)], 'prod');
    expect(one.text).toBe('1 scheduled change in prod');
    expect(JSON.stringify(one.blocks)).toContain(CHANGE_ACTIONS.cancel);
    const many = renderScheduledList(Array.from({ length: 200 }, (_, i) => waiting(i)));
    expect(messageProblems(many)).toEqual([]);
    expect(textOf(many)).toContain('…and 180 more, later than these.');
    expect(renderScheduledList([], 'dev').text).toBe('Nothing is scheduled in dev.');
  });

  it('the Home tab shows the freezes in force and the scheduled changes, within a view’s limits', () => {
    const data = {
      waiting: [],
      mine: [],
      tails: [],
      releases: [],
      alerts: [],
      freezes: Array.from({ length: 50 }, () => FREEZE),
      scheduled: Array.from({ length: 50 }, (_, i) => waiting(i)),
    };
    const view = renderHome(data, NOW);
    expect(viewProblems(view)).toEqual([]);
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('Freezes in force');
    expect(text).toContain('tournament final');
    expect(text).toContain('Scheduled changes');
    const empty = JSON.stringify(renderHome({ ...data, freezes: [], scheduled: [] }, NOW).blocks);
    expect(empty).toContain('No environment is frozen right now.');
    expect(empty).toContain('No scheduled changes are waiting.');
  });
});
