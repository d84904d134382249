/**
 * Buttons that act on something say what, for screen readers (Slack reads a
 * button's accessibility_label instead of its text): Confirm, Cancel,
 * Approve and Reject name the change, Stop names the tail. Slack allows 75
 * characters.
 */
import { describe, expect, it } from '@jest/globals';
import type { Button } from '@slack/types';
import { LIMITS, messageProblems } from '../../../src/slack/limits.js';
import { renderApprovals } from '../../../src/slack/render/approvals.js';
import { renderChange } from '../../../src/slack/render/change-message.js';
import { renderLiveTail } from '../../../src/slack/render/tail-message.js';
import { APPROVAL, buttonsOf, makeChange, NOW, PREVIEW } from './fixtures.js';

const labels = (buttons: Button[]) => buttons.map((b) => [b.text.text, b.accessibility_label]);

describe('accessibility labels', () => {
  it('Confirm and Cancel name the change they act on', () => {
    expect(labels(buttonsOf(renderChange(makeChange(), NOW)))).toEqual([
      ['Confirm', 'Confirm: Promote game-server:1.2.0 from dev to prod'],
      ['Cancel', 'Cancel the request: Promote game-server:1.2.0 from dev to prod'],
    ]);
  });

  it('Approve, Reject and Cancel name the change, in the thread and in the approvals list', () => {
    const change = makeChange({ status: 'awaiting_approval', requirement: APPROVAL });
    expect(labels(buttonsOf(renderChange(change, NOW)))).toEqual([
      ['Approve', 'Approve: Promote game-server:1.2.0 from dev to prod'],
      ['Reject', 'Reject: Promote game-server:1.2.0 from dev to prod'],
      ['Cancel', 'Cancel the request: Promote game-server:1.2.0 from dev to prod'],
    ]);
    const listed = buttonsOf(renderApprovals([change], NOW));
    expect(listed.map((b) => b.accessibility_label)).toContain(
      'Approve: Promote game-server:1.2.0 from dev to prod',
    );
  });

  it('a long summary is cut to Slack’s 75 characters, and the limit check catches a longer label', () => {
    const summary = `Set scheduling of region type game-server-large in eu-central-frankfurt-2 (production) from Packed to Distributed`;
    const change = makeChange({ preview: { ...PREVIEW, summary } });
    const message = renderChange(change, NOW);
    for (const b of buttonsOf(message)) {
      expect(b.accessibility_label?.length).toBeLessThanOrEqual(LIMITS.accessibilityLabel);
      expect(b.accessibility_label).toMatch(
        /^(Confirm|Cancel the request): Set scheduling of region type .*…$/,
      );
    }
    expect(messageProblems(message)).toEqual([]);
    const [first] = buttonsOf(message);
    if (first) first.accessibility_label = 'x'.repeat(76);
    expect(messageProblems(message).join('\n')).toMatch(/accessibility_label/);
  });

  it('Stop names the tail', () => {
    const tail = renderLiveTail({
      tailId: 'tail-1',
      env: 'dev',
      vessel: 'lobby-1',
      container: 'game',
      lines: [],
      seen: 0,
      neverShown: 0,
    });
    expect(labels(buttonsOf(tail))).toEqual([
      ['Stop', 'Stop tailing logs of lobby-1 in dev, container game'],
    ]);
  });
});
