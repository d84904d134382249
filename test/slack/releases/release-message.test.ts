/**
 * The release message and summary: what the board shows (steps and who did
 * them, what waits, live tails, buttons carrying only the release id), the
 * ended board without buttons, the summary's figures, and Slack's size limits
 * with 200 changes, huge summaries and long titles.
 */
import { describe, expect, it } from '@jest/globals';
import type { StaticSelect } from '@slack/types';
import type { Change } from '../../../src/changes/change.js';
import { CHANGE_OPERATIONS } from '../../../src/policy/operations.js';
import { summarize } from '../../../src/releases/summary.js';
import type { ReleaseSnapshot } from '../../../src/releases/types.js';
import {
  CHANGE_ACTIONS,
  RELEASE_ACTIONS,
  RELEASE_ADD_ACTION,
  RELEASE_END_ACTION,
  RELEASE_ROLLBACK_ACTION,
} from '../../../src/slack/ids.js';
import { LIMITS, messageProblems } from '../../../src/slack/limits.js';
import type { SlackMessage } from '../../../src/slack/render/message.js';
import { renderEndAnswer, renderEndChoice } from '../../../src/slack/render/release-end.js';
import {
  ADD_A_CHANGE,
  NOT_RELEASE_STEPS,
  renderAmbiguousRelease,
  renderReleaseEnded,
  renderReleaseMessage,
  renderReleaseSummary,
} from '../../../src/slack/render/release-message.js';
import type { ReleaseRecord, TailRecord } from '../../../src/store/types.js';
import { APPROVAL, buttonsOf, MINUTE, makeChange, NOW, PREVIEW, textOf } from '../render/fixtures.js';

const RELEASE: ReleaseRecord = {
  id: 'rel-1',
  workspace: 'T1',
  channel: 'C1',
  messageTs: '1700000000.000100',
  title: 'Season 4 launch',
  status: 'open',
  createdBy: 'U_LEAD',
  createdAt: NOW - 60 * MINUTE,
  data: {},
  version: 2,
};

const TAIL: TailRecord = {
  id: 'tail-1',
  workspace: 'T1',
  channel: 'C1',
  threadTs: RELEASE.messageTs,
  env: 'dev',
  vessel: 'lobby-3',
  releaseId: 'rel-1',
  startedBy: 'U_REQ',
  startedAt: NOW - 5 * MINUTE,
  status: 'active',
  state: {},
  version: 1,
};

function snapshot(overrides: Partial<ReleaseSnapshot> = {}): ReleaseSnapshot {
  return { release: RELEASE, data: {}, changes: [], tails: [], ...overrides };
}

const applied = makeChange({
  id: 'c-applied',
  status: 'succeeded',
  confirmedBy: 'U_REQ',
  updatedAt: NOW + 2 * MINUTE,
  result: { summary: 'Promoted game-server:1.2.0 to prod', lines: [], facts: {} },
  origin: { workspace: 'T1', channel: 'C1', releaseId: 'rel-1' },
});
const approved = makeChange({
  id: 'c-approved',
  status: 'succeeded',
  requirement: APPROVAL,
  confirmedBy: 'U_APP1',
  approvals: [{ changeId: 'c-approved', userId: 'U_APP1', decision: 'approve', at: NOW + 3 * MINUTE }],
  updatedAt: NOW + 4 * MINUTE,
});
const waiting = makeChange({ id: 'c-waiting', status: 'awaiting_approval', requirement: APPROVAL });
const pending = makeChange({ id: 'c-pending', preview: { ...PREVIEW, summary: 'Add vessel lobby-4' } });
const failed = makeChange({
  id: 'c-failed',
  status: 'failed',
  error: { kind: 'user', problem: 'not_found', text: 'Formation lobby has no vessel lobby-9' },
  updatedAt: NOW + MINUTE,
});
const rejected = makeChange({
  id: 'c-rejected',
  status: 'cancelled',
  error: { kind: 'rejected', by: 'U_APP1' },
});

/** The "Add a change…" select of a release message. */
function addSelectOf(message: SlackMessage): StaticSelect | undefined {
  for (const b of message.blocks)
    if (b.type === 'actions')
      for (const e of b.elements)
        if (e.type === 'static_select' && e.action_id === RELEASE_ADD_ACTION) return e;
  return undefined;
}

describe('release message', () => {
  it('a new release: its title, who started it, nothing done yet, the step buttons carrying the id', () => {
    const msg = renderReleaseMessage(snapshot(), NOW);
    expect(msg.text).toBe('Release Season 4 launch: 0 done, 0 waiting, 0 live tails');
    expect(textOf(msg)).toContain('Nothing done yet.');
    expect(textOf(msg)).toContain('Started by <@U_LEAD>');
    expect(textOf(msg)).toContain('id `rel-1`');
    const buttons = buttonsOf(msg);
    expect(buttons.map((b) => b.action_id)).toEqual([...Object.values(RELEASE_ACTIONS), RELEASE_END_ACTION]);
    expect(buttons.map((b) => b.text.text)).toEqual([
      'Promote image',
      'Add vessel to formation',
      'Remove vessel',
      'Tail logs',
      'End release',
    ]);
    expect(buttons.every((b) => b.value === 'rel-1')).toBe(true);
    // Every other change operation is one pick away, and with the buttons they cover all of them.
    const select = addSelectOf(msg);
    expect(select?.placeholder?.text).toBe('Add a change…');
    expect(select?.options?.map((o) => o.value)).toEqual(ADD_A_CHANGE.map((o) => `${o.modal} rel-1`));
    const covered = new Set([
      ...ADD_A_CHANGE.map((o) => o.modal),
      'image.promote',
      'formation.add',
      'formation.remove',
      ...NOT_RELEASE_STEPS,
      // A rollback names the change it undoes; it is no step a release thread adds.
      'change.rollback',
    ]);
    expect([...covered].sort()).toEqual([...CHANGE_OPERATIONS].sort());
    expect(messageProblems(msg)).toEqual([]);
  });

  it('steps done (newest first) with who did them, what waits and for whom, and live tails', () => {
    const msg = renderReleaseMessage(
      snapshot({ changes: [applied, approved, failed, rejected, waiting, pending], tails: [TAIL] }),
      NOW,
    );
    const text = textOf(msg);
    expect(msg.text).toBe('Release Season 4 launch: 4 done, 2 waiting, 1 live tail');
    expect(text).toContain('*Steps done (4)*');
    expect(text).toContain(
      ':white_check_mark: *Promoted game-server:1.2.0 to prod* — requested by <@U_REQ>, confirmed by <@U_REQ>',
    );
    expect(text).toContain('approved by <@U_APP1>');
    expect(text).toContain('failed: Formation lobby has no vessel lobby-9');
    expect(text).toContain('rejected by <@U_APP1>');
    expect(text.indexOf('rejected by')).toBeLessThan(text.indexOf('Promoted game-server'));
    // What waits for an approver is on top, with Approve and Reject (spoken with the change's summary).
    expect(text).toContain('*Waiting for approval (1)*');
    expect(text).toContain('waiting for approval by <@U_APP1>, <!subteam^S_OPS>; 0 of 2 approvals so far');
    const approvalButtons = buttonsOf(msg).filter((b) => b.value === waiting.id);
    expect(approvalButtons.map((b) => [b.action_id, b.accessibility_label])).toEqual([
      [CHANGE_ACTIONS.approve, `Approve: ${waiting.preview.summary}`],
      [CHANGE_ACTIONS.reject, `Reject: ${waiting.preview.summary}`],
    ]);
    expect(text).toContain('*Waiting (1)*');
    expect(text).toContain(':point_right: *Add vessel lobby-4* — waiting for <@U_REQ> to confirm');
    expect(text).toContain('*Live tails (1)*');
    expect(text).toContain(':scroll: `lobby-3` in `dev` — started by <@U_REQ>');
    expect(messageProblems(msg)).toEqual([]);
  });

  it('an ended release: only Roll back release, who ended it and after how long; tails are not listed', () => {
    const ended = { ...RELEASE, status: 'ended' as const, endedAt: NOW };
    const msg = renderReleaseMessage(
      snapshot({ release: ended, data: { endedBy: 'U_LEAD' }, changes: [applied], tails: [TAIL] }),
      NOW,
    );
    // An applied step can still be undone after the end: the one button left (issue 28).
    expect(buttonsOf(msg).map((b) => [b.action_id, b.value])).toEqual([
      [RELEASE_ROLLBACK_ACTION, RELEASE.id],
    ]);
    expect(msg.text).toBe('Release ended: Season 4 launch (1 step done)');
    expect(textOf(msg)).toContain('ended by <@U_LEAD>');
    expect(textOf(msg)).toContain('after 1 h');
    expect(textOf(msg)).not.toContain('Live tails');
  });

  it('mrkdwn in titles and summaries is escaped', () => {
    const change = makeChange({
      status: 'succeeded',
      preview: { ...PREVIEW, summary: 'Promote <!channel> & co' },
    });
    const msg = renderReleaseMessage(
      snapshot({ release: { ...RELEASE, title: '<@U1> & <!here>' }, changes: [change] }),
      NOW,
    );
    expect(msg.text).toContain('&lt;@U1&gt; &amp; &lt;!here&gt;');
    expect(textOf(msg)).toContain('Promote &lt;!channel&gt; &amp; co');
    expect(textOf(msg)).not.toContain('<!channel>');
  });
});

describe('size limits', () => {
  const LONG_TITLE = 'Season 4 launch with a very long name '.repeat(100);
  const HUGE = 'x'.repeat(5000);
  const statuses: Change['status'][] = [
    'succeeded',
    'failed',
    'cancelled',
    'expired',
    'pending',
    'awaiting_approval',
  ];
  const many = Array.from({ length: 200 }, (_, i) =>
    makeChange({
      id: `c-${i}`,
      status: statuses[i % statuses.length] as Change['status'],
      requirement: i % 2 ? APPROVAL : makeChange().requirement,
      preview: { ...PREVIEW, summary: `${i}: ${HUGE}` },
      error: { kind: 'user', problem: 'user', text: HUGE },
      approvals: Array.from({ length: 30 }, (_, a) => ({
        changeId: `c-${i}`,
        userId: `U${a}`,
        decision: 'approve' as const,
        at: NOW + a,
      })),
      createdAt: NOW + i * MINUTE,
      updatedAt: NOW + i * MINUTE + 30_000,
    }),
  );
  const tails = Array.from({ length: 50 }, (_, i) => ({
    ...TAIL,
    id: `t-${i}`,
    vessel: `${HUGE}-${i}`,
    container: HUGE,
  }));
  const big = snapshot({ release: { ...RELEASE, title: LONG_TITLE }, changes: many, tails });

  it('the open board with 200 changes, 50 tails and a long title fits, buttons kept', () => {
    const msg = renderReleaseMessage(big, NOW);
    expect(messageProblems(msg)).toEqual([]);
    expect(msg.blocks.length).toBeLessThanOrEqual(LIMITS.messageBlocks);
    // The release's five buttons, Roll back release (some steps applied) and Approve / Reject
    // for the first five changes waiting for approval.
    expect(buttonsOf(msg)).toHaveLength(16);
    expect(textOf(msg)).toContain('more waiting for approval');
    expect(textOf(msg)).toMatch(/… and \d+ more/);
    // Newest first: the latest step is shown, the oldest are the ones counted away.
    expect(textOf(msg)).toContain('*198: ');
  });

  it('the ended board and the summary with 200 changes fit too', () => {
    const ended = {
      ...big,
      release: { ...big.release, status: 'ended' as const, endedAt: NOW + 300 * MINUTE },
    };
    expect(messageProblems(renderReleaseMessage(ended, NOW))).toEqual([]);
    const summary = renderReleaseSummary(summarize(ended, NOW + 300 * MINUTE, 50));
    expect(messageProblems(summary)).toEqual([]);
    expect(summary.text.length).toBeLessThanOrEqual(LIMITS.messageText);
  });

  it('the question about 200 waiting changes and the answer naming them fit; the choice buttons carry a short value', () => {
    const waitingMany = many.map((c) => ({ ...c, status: 'pending' as const }));
    const question = renderEndChoice({ ...RELEASE, title: LONG_TITLE }, waitingMany, 'a'.repeat(24));
    expect(messageProblems(question)).toEqual([]);
    expect(buttonsOf(question).map((b) => b.text.text)).toEqual(['Cancel them and end', 'Keep them and end']);
    for (const b of buttonsOf(question)) expect((b.value ?? '').length).toBeLessThan(200);
    const summary = summarize(snapshot({ changes: waitingMany }), NOW, 0);
    const answer = renderEndAnswer({
      kind: 'ended',
      release: { ...RELEASE, title: LONG_TITLE },
      summary,
      tailsStopped: 0,
      cancelled: waitingMany.slice(0, 100).map((change) => ({ kind: 'cancelled' as const, change })),
      notCancelled: waitingMany.slice(100, 150).map((change) => ({ change, reason: HUGE })),
      kept: waitingMany.slice(150),
    });
    expect(messageProblems(answer)).toEqual([]);
    expect(answer.text).toContain('Could not cancel');
  });

  it('the ambiguity answer with 200 matches and the end reply with a long title fit', () => {
    const matches = Array.from({ length: 200 }, (_, i) => ({ ...RELEASE, id: `rel-${i}`, channel: `C${i}` }));
    expect(messageProblems(renderAmbiguousRelease('/harbor', LONG_TITLE, matches))).toEqual([]);
    expect(messageProblems(renderReleaseEnded({ ...RELEASE, title: LONG_TITLE }, 3))).toEqual([]);
  });
});

describe('summary', () => {
  it('counts outcomes, approvals and durations', () => {
    const ended = { ...RELEASE, status: 'ended' as const, endedAt: NOW + 10 * MINUTE };
    const s = summarize(
      snapshot({
        release: ended,
        data: { endedBy: 'U_LEAD' },
        changes: [applied, approved, failed, rejected, waiting],
      }),
      NOW + 10 * MINUTE,
      2,
    );
    expect(s).toMatchObject({
      applied: 2,
      failed: 1,
      rejected: 1,
      cancelled: 0,
      expired: 0,
      open: 1,
      approvals: 1,
      tailsStopped: 2,
      durationMs: 70 * MINUTE,
      medianToDoneMs: 3 * MINUTE,
      longestApprovalWaitMs: 3 * MINUTE,
      endedBy: 'U_LEAD',
    });
    const msg = renderReleaseSummary(s);
    expect(msg.text).toBe(
      'Release Season 4 launch ended after 1 h 10 min: 2 applied, 1 failed, 1 rejected or cancelled, 1 approval',
    );
    const text = textOf(msg);
    expect(text).toContain('*Median request to result*\n3 min');
    expect(text).toContain('*Tails stopped*\n2');
    expect(text).toContain('*Steps (5), in order*');
    // In order, each with how long it took.
    expect(text.indexOf('Promoted game-server')).toBeLessThan(text.indexOf('lobby-9'));
    expect(text).toContain('confirmed by <@U_REQ> · 2 min');
    expect(text).toContain('Ended by <@U_LEAD>');
  });

  it('without changes says so and shows no durations', () => {
    const s = summarize(snapshot(), NOW, 0);
    expect(s.medianToDoneMs).toBeUndefined();
    expect(textOf(renderReleaseSummary(s))).toContain('No changes were made in this release.');
  });
});
