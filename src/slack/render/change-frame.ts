/**
 * What every state of a change's message shares: its heading (the status
 * header over the summary in bold), the fallback text notifications show,
 * and the byline naming who requested, confirmed and approved it.
 */

import type { KnownBlock } from '@slack/types';
import type { Change } from '../../changes/change.js';
import { LIMITS } from '../limits.js';
import { approvers } from './approval-status.js';
import { escapeFit, header, joinMapped, mention, section } from './blocks.js';
import { scheduledLine } from './scheduled.js';

const SUMMARY_MAX = 1000;
/** How long an error's words may run in a change's message. */
export const ERROR_MAX = 2500;

// Header with the status, then the summary in bold: the two things a reader scans for.
export function top(title: string, summary: string): KnownBlock[] {
  return [header(title), section(`*${escapeFit(summary, SUMMARY_MAX)}*`)];
}

export function fallback(title: string, summary: string): string {
  return `${title}: ${escapeFit(summary, LIMITS.messageText)}`;
}

/** The byline: scheduled for when, requested, confirmed and approved by whom. */
export function people(change: Change): string {
  const parts = [`requested by ${mention(change.requester)}`];
  const scheduled = scheduledLine(change);
  if (scheduled) parts.unshift(scheduled);
  const approved = approvers(change);
  // The approval that satisfies the policy also applies the change, recording its author as the
  // confirmer: naming them twice ("confirmed by X · approved by X") would say nothing more.
  if (change.confirmedBy && !approved.includes(change.confirmedBy))
    parts.push(`confirmed by ${mention(change.confirmedBy)}`);
  if (approved.length) parts.push(`approved by ${names(approved)}`);
  return parts.join(' · ');
}

function names(users: readonly string[]): string {
  return joinMapped(users, mention, 1200, ', ');
}
