/**
 * What a guarded change's message and thread say (issue 42): until when it
 * is guarded; a clean window in one line; an automatic rollback with its
 * trigger and the rollback, mentioning the requester and each approver once;
 * a trigger that wrote nothing, with why, mentioning them too. Within
 * Slack's limits however long the trigger.
 */
import { describe, expect, it } from '@jest/globals';
import type { Change } from '../../../src/changes/change.js';
import type { GuardOutcome } from '../../../src/changes/guard-outcome.js';
import { messageProblems } from '../../../src/slack/limits.js';
import { renderChange } from '../../../src/slack/render/change-message.js';
import { renderGuardNotice } from '../../../src/slack/render/guard.js';
import { APPROVAL, MINUTE, makeChange, NOW, textOf } from './fixtures.js';

const guarded = (outcome?: GuardOutcome): Change =>
  makeChange({
    status: 'succeeded',
    requester: 'U0REQ',
    requirement: APPROVAL,
    approvals: [
      { changeId: 'c1', userId: 'U0APP', decision: 'approve', at: NOW },
      { changeId: 'c1', userId: 'U0REQ', decision: 'approve', at: NOW },
    ],
    appliedAt: NOW,
    guard: { withinMs: 15 * MINUTE, rule: 'prod-fleets' },
    result: {
      summary: 'Set armada duel (prod) to game-server:1.3.0',
      lines: [],
      facts: outcome ? { guard: outcome } : {},
    },
  });

const TRIGGER =
  "Armada duel: No ready servers (5 up, 0 ready (the status's counts); it keeps a buffer of 4 Ready)";

describe('a guarded change', () => {
  it('says until when it is guarded while the window runs', () => {
    const text = textOf(renderChange(guarded(), NOW));
    expect(text).toContain(':shield: Guarded until <!date^');
    expect(text).toContain(
      'rolled back automatically if its servers do not become Ready, or it goes Degraded (policy rule prod-fleets)',
    );
  });

  it('ends a clean window in one line, on the message and in the thread', () => {
    const outcome: GuardOutcome = { state: 'passed', withinMs: 15 * MINUTE };
    expect(textOf(renderChange(guarded(outcome), NOW))).toContain('Guard passed: no trouble in 15 min.');
    expect(renderGuardNotice(guarded(outcome), outcome).text).toBe('Guard passed: no trouble in 15 min.');
  });

  it('says it was rolled back automatically and why, naming the requester and the approver once each', () => {
    const outcome: GuardOutcome = {
      state: 'rolled_back',
      withinMs: 15 * MINUTE,
      trigger: TRIGGER,
      rollbackId: 'c1-guard',
      rule: 'prod-fleets',
    };
    const message = renderChange(guarded(outcome), NOW);
    expect(textOf(message)).toContain('Rolled back automatically');
    const notice = renderGuardNotice(
      guarded(outcome),
      outcome,
      'Rolled back change c1: Roll armada duel back',
    );
    expect(notice.text).toMatch(
      /^:rewind: <@U0REQ> <@U0APP> Your change was rolled back automatically by its guard \(policy rule prod-fleets\)/,
    );
    expect(notice.text).toContain('*Trigger:* Armada duel: No ready servers (5 up, 0 ready');
    expect(notice.text).toContain(
      '*Rollback:* change `c1-guard`: Rolled back change c1: Roll armada duel back',
    );
    expect(messageProblems(notice)).toEqual([]);
    expect(messageProblems(message)).toEqual([]);
  });

  it('says why nothing was written when the target moved, naming the people so a person decides', () => {
    const outcome: GuardOutcome = {
      state: 'held',
      withinMs: 15 * MINUTE,
      trigger: TRIGGER,
      reason:
        'Cannot roll back change c1: container game-server of armada duel now runs img-x, set outside Harbormaster since 2025-01-15 12:00 UTC, when that change applied.',
    };
    expect(textOf(renderChange(guarded(outcome), NOW))).toContain('Guard tripped, not rolled back');
    const notice = renderGuardNotice(guarded(outcome), outcome);
    expect(notice.text).toContain(
      '<@U0REQ> <@U0APP> The guard of your change saw trouble but did not roll it back',
    );
    expect(notice.text).toContain(
      '*Why not:* Cannot roll back change c1: container game-server of armada duel now runs img-x',
    );
    expect(notice.text).toContain('Nothing was written; a person decides what to do.');
  });

  it('stays within Slack limits with a very long trigger', () => {
    const outcome: GuardOutcome = {
      state: 'held',
      withinMs: MINUTE,
      trigger: 'x'.repeat(20_000),
      reason: 'y'.repeat(20_000),
    };
    expect(messageProblems(renderGuardNotice(guarded(outcome), outcome))).toEqual([]);
    expect(messageProblems(renderChange(guarded(outcome), NOW))).toEqual([]);
  });
});
