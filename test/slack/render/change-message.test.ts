import { describe, expect, it } from '@jest/globals';
import type { Change } from '../../../src/changes/change.js';
import { CHANGE_ACTIONS, ROW_ACTIONS } from '../../../src/slack/ids.js';
import { messageProblems } from '../../../src/slack/limits.js';
import { nothingChanged } from '../../../src/slack/render/change-closed.js';
import { renderChange } from '../../../src/slack/render/change-message.js';
import type { ChangeStatus } from '../../../src/store/types.js';
import { APPROVAL, buttonsOf, MINUTE, makeChange, NOW, PREVIEW, textOf } from './fixtures.js';

const EXPECTED_BUTTONS: Record<ChangeStatus, string[]> = {
  pending: [CHANGE_ACTIONS.confirm, CHANGE_ACTIONS.cancel],
  awaiting_approval: [CHANGE_ACTIONS.approve, CHANGE_ACTIONS.reject, CHANGE_ACTIONS.cancel],
  approved: [],
  applying: [],
  succeeded: [],
  failed: [],
  cancelled: [],
  expired: [],
};

function inStatus(status: ChangeStatus, extra: Partial<Change> = {}): Change {
  return makeChange({
    status,
    ...(status === 'awaiting_approval' ? { requirement: APPROVAL } : {}),
    ...(status === 'succeeded' ? { result: { summary: 'Promoted', lines: [], facts: {} } } : {}),
    ...(status === 'failed'
      ? {
          error: {
            kind: 'api_rejected',
            call: { method: 'POST', path: '/x' },
            status: 422,
            detail: { text: 'boom' },
          },
        }
      : {}),
    ...extra,
  });
}

describe('renderChange buttons by status', () => {
  for (const [status, expected] of Object.entries(EXPECTED_BUTTONS) as [ChangeStatus, string[]][]) {
    it(`${status}: ${expected.length ? `${expected.join(', ')} carrying the change id` : 'no buttons'}`, () => {
      const msg = renderChange(inStatus(status), NOW);
      const buttons = buttonsOf(msg);
      expect(buttons.map((b) => b.action_id)).toEqual(expected);
      for (const b of buttons) expect(b.value).toBe('chg-1');
      expect(messageProblems(msg)).toEqual([]);
    });
  }

  it('pending, not destructive: Confirm is primary and has no dialog', () => {
    const [confirm, cancel] = buttonsOf(renderChange(makeChange(), NOW));
    expect(confirm?.style).toBe('primary');
    expect(confirm?.confirm).toBeUndefined();
    expect(cancel?.style).toBeUndefined();
  });

  it('pending, destructive: Confirm is danger with a danger confirmation dialog', () => {
    const change = makeChange({
      preview: { ...PREVIEW, summary: 'Remove vessel eu-1 from formation main', destructive: true },
    });
    const msg = renderChange(change, NOW);
    const [confirm] = buttonsOf(msg);
    expect(confirm?.style).toBe('danger');
    expect(confirm?.confirm?.style).toBe('danger');
    expect(confirm?.confirm?.title?.text).toBe('Apply this destructive change?');
    expect(confirm?.confirm?.text.text).toContain('Remove vessel eu-1 from formation main');
    expect(confirm?.confirm?.confirm).toEqual({ type: 'plain_text', text: 'Yes, apply it' });
    expect(confirm?.confirm?.deny).toEqual({ type: 'plain_text', text: 'Back' });
    expect(msg.blocks[0]).toMatchObject({
      type: 'header',
      text: { text: 'Confirm this destructive change' },
    });
  });

  it('awaiting approval: Approve primary, Reject danger (its modal asks why), Cancel plain', () => {
    const [approve, reject, cancel] = buttonsOf(renderChange(inStatus('awaiting_approval'), NOW));
    expect(approve?.style).toBe('primary');
    expect(approve?.confirm).toBeUndefined();
    expect(reject?.style).toBe('danger');
    expect(reject?.confirm).toBeUndefined();
    expect(cancel?.style).toBeUndefined();
  });
});

describe('renderChange: pending', () => {
  it('shows summary, preview lines as fields, notes, requester and a Slack date for the expiry', () => {
    const msg = renderChange(makeChange(), NOW);
    const text = textOf(msg);
    expect(text).toContain('*Promote game-server:1.2.0 from dev to prod*');
    expect(
      msg.blocks.some(
        (b) => b.type === 'section' && b.fields?.some((f) => f.text === '*Image*\ngame-server:1.2.0'),
      ),
    ).toBe(true);
    expect(text).toContain('• Running vessels keep their image until restarted.');
    expect(text).toContain('Requested by <@U_REQ>');
    const seconds = (NOW + 15 * MINUTE) / 1000;
    expect(text).toContain(`expires <!date^${seconds}^{date_short_pretty} {time}|2025-01-15 12:15 UTC>`);
    expect(msg.text).toBe('Confirm this change: Promote game-server:1.2.0 from dev to prod');
  });

  it('says "expired" once now is past the expiry', () => {
    const text = textOf(renderChange(makeChange(), NOW + 20 * MINUTE));
    expect(text).toContain('expired <!date^');
    expect(text).not.toContain('expires <!date^');
  });

  it('renders many preview lines as a compact list and lists with their items', () => {
    const lines = Array.from({ length: 12 }, (_, i) => ({ label: `Field ${i}`, value: `v${i}` }));
    const msg = renderChange(
      makeChange({
        preview: { ...PREVIEW, lines, lists: [{ title: 'Current vessels', items: ['#0 eu-1', '#1 us-1'] }] },
      }),
      NOW,
    );
    const text = textOf(msg);
    expect(text).toContain('*Field 0:* v0\n*Field 1:* v1');
    expect(text).toContain('*Current vessels* (2)\n• #0 eu-1\n• #1 us-1');
  });

  it('escapes mrkdwn in the summary, lines and notes', () => {
    const msg = renderChange(
      makeChange({
        preview: {
          ...PREVIEW,
          summary: 'Promote <b>&co',
          lines: [{ label: 'Image', value: 'a<@U_EVIL>' }],
          notes: ['<!channel>'],
        },
      }),
      NOW,
    );
    const text = textOf(msg);
    expect(text).toContain('*Promote &lt;b&gt;&amp;co*');
    expect(text).toContain('a&lt;@U_EVIL&gt;');
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).not.toContain('<!channel>');
  });
});

describe('renderChange: awaiting approval', () => {
  it('names approvers (users and groups), the count so far and the self-approval rule', () => {
    const change = inStatus('awaiting_approval', {
      approvals: [
        { changeId: 'chg-1', userId: 'U_APP1', decision: 'approve', at: NOW },
        { changeId: 'chg-1', userId: 'U_APP1', decision: 'approve', at: NOW + 1 },
      ],
    });
    const text = textOf(renderChange(change, NOW));
    expect(text).toContain('*Who can approve:* <@U_APP1>, <!subteam^S_OPS>');
    expect(text).toContain('1 of 2 approvals so far (<@U_APP1>)');
    expect(text).toContain('<@U_REQ> cannot approve their own change.');
    expect(text).toContain('policy rule `prod-needs-two`');
    expect(text).toContain('expires <!date^');
  });

  it('says "anyone" for a wildcard approver and allows self-approval when the policy does', () => {
    const change = inStatus('awaiting_approval', {
      requirement: {
        ...APPROVAL,
        required: 1,
        approvers: { users: ['*'], groups: [] },
        allowSelfApproval: true,
      },
    });
    const text = textOf(renderChange(change, NOW));
    expect(text).toContain('*Who can approve:* anyone\n0 of 1 approval so far');
    expect(text).toContain('<@U_REQ> may approve their own change.');
  });

  it('says "anyone other than the requester" when self-approval is off', () => {
    const change = inStatus('awaiting_approval', {
      requirement: { ...APPROVAL, approvers: { users: ['*'], groups: ['S_OPS'] } },
    });
    expect(textOf(renderChange(change, NOW))).toContain(
      '*Who can approve:* anyone other than the requester (including <!subteam^S_OPS>)',
    );
  });
});

describe('renderChange: after the decision', () => {
  it('applying: says who confirmed', () => {
    const text = textOf(renderChange(inStatus('applying', { confirmedBy: 'U_REQ' }), NOW));
    expect(text).toContain('Applying… · requested by <@U_REQ> · confirmed by <@U_REQ>');
  });

  it('approved: names the approvers while applying', () => {
    const change = inStatus('approved', {
      approvals: [{ changeId: 'chg-1', userId: 'U_A', decision: 'approve', at: NOW }],
    });
    expect(textOf(renderChange(change, NOW))).toContain(
      'Applying… · requested by <@U_REQ> · approved by <@U_A>',
    );
  });

  it('applying after the approval that applies it: the approver is not said to have confirmed', () => {
    const change = inStatus('applying', {
      confirmedBy: 'U_A',
      approvals: [{ changeId: 'chg-1', userId: 'U_A', decision: 'approve', at: NOW }],
    });
    const text = textOf(renderChange(change, NOW));
    expect(text).toContain('Applying… · requested by <@U_REQ> · approved by <@U_A>');
    expect(text).not.toContain('confirmed by');
  });

  it('succeeded with a recorded inverse: Roll back runs the rollback of this change; once rolled back, it says by which change', () => {
    const undo = {
      kind: 'scheduling' as const,
      environment: 'dev',
      region: 'eu-central',
      type: 'baremetal',
      before: 'Packed',
      after: 'Distributed',
    };
    const offered = renderChange(inStatus('succeeded', { undo, appliedAt: NOW }), NOW);
    expect(buttonsOf(offered)).toEqual([
      expect.objectContaining({
        action_id: ROW_ACTIONS.rollback,
        text: { type: 'plain_text', text: 'Roll back' },
        value: 'rollback chg-1',
      }),
    ]);
    const done = renderChange(inStatus('succeeded', { undo, rolledBackBy: 'chg-9', rolledBackAt: NOW }), NOW);
    expect(buttonsOf(done)).toEqual([]);
    expect(textOf(done)).toContain('Rolled back by change chg-9 <!date^');
    // With the rollback read, the person who asked for it is named beside the change.
    const named = renderChange(
      inStatus('succeeded', { undo, rolledBackBy: 'chg-9', rolledBackAt: NOW }),
      NOW,
      {
        rollbackBy: 'U_BOB',
      },
    );
    expect(textOf(named)).toContain('Rolled back by <@U_BOB> in change chg-9 <!date^');
    expect(buttonsOf(renderChange(inStatus('succeeded'), NOW))).toEqual([]);
  });

  it('succeeded: the result summary and lines, requester, confirmer and approvers', () => {
    const change = inStatus('succeeded', {
      confirmedBy: 'U_APP2',
      approvals: [
        { changeId: 'chg-1', userId: 'U_APP1', decision: 'approve', at: NOW },
        { changeId: 'chg-1', userId: 'U_X', decision: 'reject', at: NOW },
        { changeId: 'chg-1', userId: 'U_APP2', decision: 'approve', at: NOW },
      ],
      result: {
        summary: 'Promoted game-server:1.2.0 to prod',
        lines: [{ label: 'Promotion', value: 'promo-abc' }],
        facts: {},
      },
    });
    const msg = renderChange(change, NOW);
    const text = textOf(msg);
    expect(msg.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Done' } });
    expect(text).toContain('*Promoted game-server:1.2.0 to prod*');
    expect(text).toContain('*Promotion*\npromo-abc');
    // The last approval applied it: U_APP2 is named once, as an approver, and the time is a date token.
    expect(text).toContain(
      `Applied <!date^${Math.floor(change.updatedAt / 1000)}^{date_short_pretty} {time}|`,
    );
    expect(text).toContain('requested by <@U_REQ> · approved by <@U_APP1>, <@U_APP2>');
    expect(text).not.toContain('confirmed by');
    expect(text).not.toContain('U_X');
  });

  it('failed: the error message and "Nothing was changed." when the kind guarantees it', () => {
    const text = textOf(
      renderChange(
        inStatus('failed', { error: { kind: 'user', problem: 'not_found', text: 'Vessel eu-1 is gone.' } }),
        NOW,
      ),
    );
    expect(text).toContain('Vessel eu-1 is gone.\nNothing was changed.');
  });

  it('failed: no "nothing was changed" for internal errors or unverifiable writes, and no duplicate', () => {
    const internal = textOf(
      renderChange(inStatus('failed', { error: { kind: 'internal', errorId: 'ab12' } }), NOW),
    );
    expect(internal).toContain('Harbormaster hit an internal error (id ab12).');
    expect(internal).not.toMatch(/nothing was changed/i);
    const unclear = textOf(
      renderChange(
        inStatus('failed', {
          error: { kind: 'store_unavailable', errorId: 'cd34' },
        }),
        NOW,
      ),
    );
    expect(unclear).not.toMatch(/nothing was changed/i);
    const already = textOf(
      renderChange(
        inStatus('failed', {
          error: {
            kind: 'unreachable',
            call: { method: 'GET', path: '/x' },
            detail: { reason: 'Timeout', text: 'timed out after 30 ms' },
          },
        }),
        NOW,
      ),
    );
    expect(already.match(/nothing was changed/gi)).toHaveLength(1);
  });

  it('rejected: says who rejected it', () => {
    const change = inStatus('cancelled', {
      error: { kind: 'rejected', by: 'U_APP1' },
    });
    const msg = renderChange(change, NOW);
    expect(msg.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Rejected' } });
    expect(textOf(msg)).toContain('Rejected by <@U_APP1>; nothing was applied.');
  });

  it('cancelled: says who cancelled it', () => {
    const change = inStatus('cancelled', {
      error: { kind: 'cancelled', by: 'U_REQ' },
    });
    expect(textOf(renderChange(change, NOW))).toContain('Cancelled by <@U_REQ>; nothing was applied.');
  });

  it('expired: says so with the expiry date', () => {
    const msg = renderChange(inStatus('expired'), NOW + 30 * MINUTE);
    expect(msg.text).toBe('Expired: Promote game-server:1.2.0 from dev to prod');
    expect(textOf(msg)).toContain(`Expired <!date^${(NOW + 15 * MINUTE) / 1000}^`);
  });
});

describe('nothingChanged', () => {
  it('is true for kinds that guarantee it and false for internal errors and open outcomes', () => {
    expect(nothingChanged({ kind: 'user', problem: 'validation', text: 'x' })).toBe(true);
    expect(nothingChanged({ kind: 'conflict', object: 'formation', name: 'lobby', attempts: 3 })).toBe(true);
    expect(nothingChanged({ kind: 'internal', errorId: 'ab12' })).toBe(false);
    expect(nothingChanged({ kind: 'store_unavailable', errorId: 'ab12' })).toBe(false);
    expect(nothingChanged({ kind: 'earlier', text: 'old words', state: 'unknown' })).toBe(false);
  });
});
