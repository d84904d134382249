/**
 * A watch alert (issue 29): what is wrong (kind, object, environment, state,
 * reason, the Site down), since when, and the buttons that lead to the fix:
 * Show, Logs (vessels), What changed, Mute 1 h. Recovered, the same message
 * says so and how long it lasted, without buttons. Drawn only by the alert
 * messenger (slack/alerts/), the one owner of these messages.
 */
import type { Button, KnownBlock } from '@slack/types';
import { formatSpan } from '../../format/duration.js';
import type { WatchAlert } from '../../store/watch-types.js';
import { ALERT_ACTIONS } from '../ids.js';
import { LIMITS, truncate } from '../limits.js';
import { context, escapeFit, finish, section, slackDate } from './blocks.js';
import { actions, spokenLabel } from './buttons.js';
import type { SlackMessage } from './message.js';
import { rowButton } from './row-actions.js';

/** The command word that shows an object of `kind`. */
const SHOW_WORD: Record<string, string> = {
  Armada: 'armada',
  ArmadaSet: 'armadaset',
  Formation: 'formation',
  Vessel: 'vessel',
};

const what = (a: WatchAlert): string => `${a.kind} ${a.name} in ${a.env}`;

function alertButtons(a: WatchAlert): Button[] {
  const word = SHOW_WORD[a.kind];
  const buttons: Button[] = [];
  const show =
    word &&
    rowButton({ action: 'show', command: `${word} show ${a.env} ${a.name}`, spoken: `Show ${what(a)}` });
  if (show) buttons.push(show);
  if (a.kind === 'Vessel') {
    const logs = rowButton({
      action: 'logs',
      command: `logs ${a.env} ${a.name}`,
      spoken: `Logs of ${what(a)}`,
    });
    if (logs) buttons.push(logs);
  }
  buttons.push(
    {
      type: 'button',
      action_id: ALERT_ACTIONS.whatChanged,
      text: { type: 'plain_text', text: 'What changed' },
      value: a.id,
      accessibility_label: spokenLabel('What changed', what(a)),
    },
    {
      type: 'button',
      action_id: ALERT_ACTIONS.mute,
      text: { type: 'plain_text', text: 'Mute 1 h' },
      value: a.id,
      accessibility_label: spokenLabel('Mute for an hour', what(a)),
    },
  );
  return buttons;
}

/** The alert message as it stands: open (with buttons) or recovered (without). */
export function renderAlert(a: WatchAlert): SlackMessage {
  const subject = `*${escapeFit(a.kind, 40)} \`${escapeFit(a.name, 120)}\`* in \`${escapeFit(a.env, 60)}\``;
  const reason = a.reason ? `: ${escapeFit(a.reason, 1200)}` : '';
  const blocks: KnownBlock[] = [];
  if (a.recoveredAt === undefined) {
    blocks.push(section(`:rotating_light: ${subject} is *${escapeFit(a.state, 60)}*${reason}`));
    if (a.detail) blocks.push(section(escapeFit(a.detail, 1500)));
    const muted = a.mutedUntil !== undefined ? ` · muted here until ${slackDate(a.mutedUntil)}` : '';
    blocks.push(context(`Trouble since ${slackDate(a.firstBadAt)}${muted}`));
    blocks.push(actions(alertButtons(a)));
    return finish(
      truncate(`${what(a)} is ${a.state}${a.reason ? `: ${a.reason}` : ''}`, LIMITS.messageText),
      blocks,
    );
  }
  const lastedMs = a.lastedMs ?? a.recoveredAt - a.firstBadAt;
  const lasted = formatSpan(lastedMs);
  blocks.push(
    section(`:white_check_mark: ${subject} recovered: it was *${escapeFit(a.state, 60)}*${reason}`),
  );
  blocks.push(
    context(
      `Trouble from ${slackDate(a.firstBadAt)} for ${lasted}; well again since ${slackDate(a.firstBadAt + lastedMs)}`,
    ),
  );
  return finish(`${what(a)} recovered after ${lasted}`, blocks);
}
