/**
 * What a guarded change's message and thread say about its guard (issue 42):
 * while it watches, until when; when its window passed clean, that it did;
 * when it rolled the change back automatically, why (the trigger) and by
 * which rollback, mentioning the requester and approvers; when a trigger
 * fired but nothing was written (the target moved), why not, mentioning them
 * so a person decides. Drawn from the change's stored outcome only.
 */
import type { KnownBlock } from '@slack/types';
import type { Change } from '../../changes/change.js';
import { type GuardOutcome, guardOutcomeOf, guardPeople } from '../../changes/guard-outcome.js';
import { formatSpan } from '../../format/duration.js';
import { context, escapeFit, finish, mention, section, slackDate } from './blocks.js';
import type { SlackMessage } from './message.js';

const TRIGGER_MAX = 1200;
const REASON_MAX = 1200;

/** The requester and approvers, as mentions. */
const people = (change: Change): string => guardPeople(change).map(mention).join(' ');

/** The header of an applied change whose guard acted, or undefined to keep the follow-up's. */
export function guardTitle(change: Change): string | undefined {
  const outcome = guardOutcomeOf(change);
  if (outcome?.state === 'rolled_back') return 'Rolled back automatically';
  if (outcome?.state === 'held') return 'Guard tripped, not rolled back';
  return undefined;
}

/** The blocks an applied change's message shows about its guard: none when it is not guarded. */
export function guardBlocks(change: Change): KnownBlock[] {
  if (!change.guard) return [];
  const outcome = guardOutcomeOf(change);
  // Rolled back by a person before its guard ended: the rollback line says so, and nothing is guarded any more.
  if (!outcome && change.rolledBackBy) return [];
  if (!outcome) {
    const until =
      change.appliedAt !== undefined ? ` until ${slackDate(change.appliedAt + change.guard.withinMs)}` : '';
    return [
      context(
        `:shield: Guarded${until}: rolled back automatically if its servers do not become Ready, or it goes Degraded (policy rule ${escapeFit(change.guard.rule, 100)}).`,
      ),
    ];
  }
  return [guardLine(change, outcome)];
}

function guardLine(change: Change, outcome: GuardOutcome): KnownBlock {
  switch (outcome.state) {
    case 'passed':
      return context(`:shield: Guard passed: no trouble in ${formatSpan(outcome.withinMs)}.`);
    case 'rolled_back':
      return section(
        `:rewind: ${people(change)} Rolled back automatically by its guard (policy rule ${escapeFit(outcome.rule, 100)}), by change \`${escapeFit(outcome.rollbackId, 80)}\`. Trigger: ${escapeFit(outcome.trigger, TRIGGER_MAX)}`,
      );
    case 'held':
      return section(
        `:warning: ${people(change)} Its guard saw trouble but rolled nothing back: ${escapeFit(outcome.reason, REASON_MAX)} Trigger: ${escapeFit(outcome.trigger, TRIGGER_MAX)} A person decides what to do.`,
      );
  }
}

/** The thread reply when a guard ends: the one line of a clean window, or what it did and why, naming the people. */
export function renderGuardNotice(
  change: Change,
  outcome: GuardOutcome,
  rollbackSummary?: string,
): SlackMessage {
  const summary = `*${escapeFit(change.result?.summary ?? change.preview.summary, 500)}*`;
  const text =
    outcome.state === 'passed'
      ? `Guard passed: no trouble in ${formatSpan(outcome.withinMs)}.`
      : outcome.state === 'rolled_back'
        ? `:rewind: ${people(change)} Your change was rolled back automatically by its guard (policy rule ${escapeFit(outcome.rule, 100)}): ${summary}.\n*Trigger:* ${escapeFit(outcome.trigger, TRIGGER_MAX)}\n*Rollback:* change \`${escapeFit(outcome.rollbackId, 80)}\`${rollbackSummary ? `: ${escapeFit(rollbackSummary, 500)}` : ''}`
        : `:warning: ${people(change)} The guard of your change saw trouble but did not roll it back: ${summary}.\n*Trigger:* ${escapeFit(outcome.trigger, TRIGGER_MAX)}\n*Why not:* ${escapeFit(outcome.reason, REASON_MAX)}\nNothing was written; a person decides what to do.`;
  return finish(text, [section(text)]);
}
