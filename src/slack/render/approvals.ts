/**
 * The approvals list: changes waiting for an approval the asking user may
 * give, each with its own Approve and Reject buttons. Rendered fresh on
 * request, so relative times ("in 14 min") are accurate when it is read.
 */
import type { KnownBlock } from '@slack/types';
import type { Change } from '../../changes/change.js';
import { formatRelative } from '../../format/duration.js';
import { noun } from '../../format/english.js';
import { appliesDestructive, approvalProgress, whoMayApprove } from './approval-status.js';
import { divider, escapeFit, finish, header, mention, section, slackDate } from './blocks.js';
import { actions, approvalButtons } from './buttons.js';
import type { SlackMessage } from './message.js';
import { changeLink, linked } from './permalink.js';

// Three blocks per change (section, buttons, divider) keeps 15 well under 50 blocks.
const MAX_SHOWN = 15;

// The asker's own waiting requests are one line each, in one section.
const MAX_OWN_SHOWN = 10;

/**
 * Pending approvals the user can act on, each with Approve / Reject; a
 * friendly line when there are none. `notice`: what the user's last click in
 * this list did, shown above the refreshed list that replaces the old one.
 * `own`: the user's requests that wait on others, listed apart with who is
 * asked and when each expires (issue 18.2).
 */
export function renderApprovals(
  changes: Change[],
  now: number,
  notice?: string,
  own: readonly Change[] = [],
): SlackMessage {
  const top: KnownBlock[] = notice ? [section(notice), divider()] : [];
  const ownBlocks = renderOwn(own, now);
  if (changes.length === 0) {
    const text = notice
      ? 'Nothing else is waiting for you.'
      : 'Nothing is waiting for you: no changes need your approval right now.';
    return finish(notice ?? text, [...top, section(text), ...ownBlocks]);
  }
  const count = `${changes.length} ${notice ? 'more ' : ''}${noun(changes.length, 'change')} waiting for your approval`;
  const blocks: KnownBlock[] = [...top, header(count)];
  changes.slice(0, MAX_SHOWN).forEach((change, i) => {
    if (i > 0) blocks.push(divider());
    blocks.push(section(describe(change, now), `approvals.${i}`));
    blocks.push(
      actions(
        approvalButtons(change.id, change.preview.summary, {
          withCancel: false,
          appliesDestructive: appliesDestructive(change),
          warnings: change.preview.warnings ?? [],
        }),
        `approvals.${i}.actions`,
      ),
    );
  });
  if (changes.length > MAX_SHOWN) {
    blocks.push(
      section(`… and ${changes.length - MAX_SHOWN} more; approve these first, then ask again for the rest.`),
    );
  }
  return finish(notice ?? count, [...blocks, ...ownBlocks]);
}

/** "Your requests waiting on others": who is asked, how far, when each expires; nothing when there are none. */
function renderOwn(own: readonly Change[], now: number): KnownBlock[] {
  if (own.length === 0) return [];
  const line = (c: Change) =>
    `• ${linked(escapeFit(c.preview.summary, 300), changeLink(c))} · asks ${whoMayApprove(c)} · ` +
    `${approvalProgress(c)} · expires ${slackDate(c.expiresAt)} (${formatRelative(c.expiresAt, now)})`;
  const more = own.length > MAX_OWN_SHOWN ? `\n… and ${own.length - MAX_OWN_SHOWN} more` : '';
  return [
    divider(),
    header(`Your requests waiting on others (${own.length})`),
    section(`${own.slice(0, MAX_OWN_SHOWN).map(line).join('\n')}${more}`),
  ];
}

function describe(change: Change, now: number): string {
  const when =
    change.expiresAt > now
      ? `expires ${slackDate(change.expiresAt)} (${formatRelative(change.expiresAt, now)})`
      : `expired ${slackDate(change.expiresAt)}`;
  return [
    // The summary links to the change's own message, where its preview and thread are.
    `*${linked(escapeFit(change.preview.summary, 1000), changeLink(change))}*${change.preview.destructive ? ' (destructive)' : ''}`,
    `Requested by ${mention(change.requester)} · ${when}`,
    `${approvalProgress(change)} · approvers: ${whoMayApprove(change)}`,
  ].join('\n');
}
