/**
 * The history answer: one line per change from the audit log (outcome, what,
 * who, when, a link to its message), newest first, with an "Older" button
 * that replaces the list with the next page.
 */

import type { KnownBlock } from '@slack/types';
import type { HistoryItem, HistoryPage } from '../../changes/history-query.js';
import { offersRollback } from '../../changes/rollback/undo.js';
import { HISTORY_ACTIONS, type HistoryCursor } from '../ids.js';
import { context, escapeFit, finish, header, mention, section, slackDate, typedText } from './blocks.js';
import { actions } from './buttons.js';
import { rejectionReason } from './failure-text.js';
import type { SlackMessage } from './message.js';
import { changeLink, linked } from './permalink.js';
import { rowActions } from './row-actions.js';

const SUMMARY_MAX = 300;

/** A page of history for `filter` (the text the user typed, if any). */
export function renderHistory(page: HistoryPage, filter: string | undefined, older: boolean): SlackMessage {
  const of = filter ? ` of ${filter}` : '';
  if (page.items.length === 0) {
    // Not "No …": an empty history is an answer, not a failure.
    const text = older
      ? `The audit log holds no older changes${of}.`
      : `The audit log holds no changes${of} yet${filter ? ' (a name matches an environment, formation, vessel, region or branch exactly)' : ''}.`;
    return finish(text, [section(escapeFit(text, 500))]);
  }
  const title = `${older ? 'Older' : 'Recent'} changes${of}`;
  const blocks: KnownBlock[] = [
    header(title),
    ...page.items.flatMap((item) => [section(line(item)), ...offers(item)]),
  ];
  if (page.before !== undefined) {
    const cursor: HistoryCursor = { before: page.before, ...(filter ? { filter } : {}) };
    blocks.push(
      actions([
        {
          type: 'button',
          action_id: HISTORY_ACTIONS.older,
          text: { type: 'plain_text', text: 'Older' },
          value: JSON.stringify(cursor),
        },
      ]),
    );
  } else if (page.scanLimited) {
    blocks.push(
      context(
        'Only the most recent part of the audit log was searched; narrow the name to see further back.',
      ),
    );
  }
  return finish(title, blocks);
}

function line(item: HistoryItem): string {
  const { entry, change } = item;
  const summary = linked(
    escapeFit(change.result?.summary ?? change.preview.summary, SUMMARY_MAX),
    changeLink(change),
  );
  const when = slackDate(entry.at);
  const requested = `requested by ${mention(change.requester)}`;
  const outcome = describeOutcome(item);
  // The id is what `/harbor rollback <id>` takes, and what the audit of a rollback names.
  const id = ` · change \`${escapeFit(change.id, 80)}\``;
  const rolledBack = change.rolledBackBy
    ? ` · rolled back by change \`${escapeFit(change.rolledBackBy, 80)}\``
    : '';
  return `${outcome.icon} *${summary}*\n${outcome.words} ${when} · ${requested}${outcome.by}${id}${rolledBack}`;
}

/**
 * Roll back on the row of an applied change that recorded its inverse and was
 * not rolled back yet: the same `rollback <id>` its own message offers, which
 * explains instead of acting past its window or on a moved target.
 */
function offers({ entry, change }: HistoryItem): KnownBlock[] {
  const applied = (entry.action === 'apply' || entry.action === 'recover') && entry.outcome === 'succeeded';
  if (!applied || change.status !== 'succeeded' || !offersRollback(change.undo) || change.rolledBackBy)
    return [];
  return rowActions([
    {
      action: 'rollback',
      command: `rollback ${change.id}`,
      spoken: `Roll back: ${change.result?.summary ?? change.preview.summary}`,
    },
  ]);
}

function describeOutcome({ entry, change }: HistoryItem): { icon: string; words: string; by: string } {
  const by = (verb: string) => ` · ${verb} ${mention(entry.actor)}`;
  switch (entry.action) {
    case 'apply':
      return entry.outcome === 'succeeded'
        ? change?.result?.facts?.partial === true
          ? { icon: ':warning:', words: 'Partly done', by: by('applied by') }
          : { icon: ':white_check_mark:', words: 'Done', by: by('applied by') }
        : { icon: ':x:', words: 'Failed', by: by('run by') };
    case 'recover':
      return entry.outcome === 'succeeded'
        ? { icon: ':white_check_mark:', words: 'Done (confirmed after an interruption)', by: '' }
        : { icon: ':x:', words: 'Interrupted', by: '' };
    case 'reject': {
      const said = rejectionReason(change);
      const reason = said ? ` — ${typedText(said, 200)}` : '';
      return { icon: ':no_entry:', words: 'Rejected', by: `${by('by')}${reason}` };
    }
    case 'cancel':
      return { icon: ':no_entry_sign:', words: 'Cancelled', by: by('by') };
    default:
      return { icon: ':hourglass:', words: 'Expired', by: '' };
  }
}
