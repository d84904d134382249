/**
 * A watch alert (issue 29): what is wrong (kind, object, environment, state,
 * reason, the Site down), since when, and the buttons that lead to the fix:
 * Show, Logs (vessels), What changed, Mute 1 h. An alert about a cause that
 * fleets share (a Site down, a Degraded reason: issue 38.6) names every fleet
 * behind it and those that recovered since. Recovered, the same message says
 * so and how long it lasted, without buttons. Drawn only by the alert
 * messenger (slack/alerts/), the one owner of these messages.
 */
import type { Button, KnownBlock } from '@slack/types';
import { formatSpan } from '../../format/duration.js';
import type { AlertFleet, WatchAlert } from '../../store/watch-types.js';
import { ALERT_ACTIONS } from '../ids.js';
import { LIMITS, truncate } from '../limits.js';
import { context, escapeFit, finish, joinMapped, section, slackDate } from './blocks.js';
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

const what = (a: WatchAlert): string =>
  a.kind === 'Degraded' ? `Degraded fleets in ${a.env}` : `${a.kind} ${a.name} in ${a.env}`;

const fleetText = (f: AlertFleet): string =>
  `${f.kind} \`${escapeFit(f.name, 120)}\`${f.region ? ` (${escapeFit(f.region, 60)})` : ''}`;

/** "Fleets behind it (2): Armada `duel` (eu-central), ArmadaSet `arena`" and those recovered since. */
function fleetLines(fleets: readonly AlertFleet[], open: boolean): string {
  const still = fleets.filter((f) => !f.recovered);
  const well = fleets.filter((f) => f.recovered);
  const lines: string[] = [];
  if (open && still.length > 0)
    lines.push(`Fleets behind it (${still.length}): ${joinMapped(still, fleetText, 1200, ', ')}`);
  const recovered = open ? well : fleets;
  if (recovered.length > 0)
    lines.push(
      `${open ? 'Recovered since' : 'Fleets that were behind it'}: ${joinMapped(recovered, fleetText, 1200, ', ')}`,
    );
  return lines.join('\n');
}

/** The alert's subject: a Site or an object by kind and name, or the Degraded fleets of a reason. */
function subjectOf(a: WatchAlert): string {
  const env = `\`${escapeFit(a.env, 60)}\``;
  if (a.kind === 'Degraded') {
    const n = (a.fleets ?? []).filter((f) => !f.recovered).length;
    return `*${n === 1 ? '1 fleet' : `${n} fleets`}* in ${env}`;
  }
  return `*${escapeFit(a.kind, 40)} \`${escapeFit(a.name, 120)}\`* in ${env}`;
}

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
export function renderAlert(a: WatchAlert, notes: readonly string[] = []): SlackMessage {
  const subject = subjectOf(a);
  const reason = a.reason ? `: ${escapeFit(a.reason, 1200)}` : '';
  const blocks: KnownBlock[] = [];
  if (a.recoveredAt === undefined) {
    const verb = a.kind === 'Degraded' ? 'are' : 'is';
    blocks.push(section(`:rotating_light: ${subject} ${verb} *${escapeFit(a.state, 60)}*${reason}`));
    if (a.detail) blocks.push(section(escapeFit(a.detail, 1500)));
    if (a.fleets) blocks.push(section(fleetLines(a.fleets, true)));
    // A guard's automatic rollback of the change that touched it (issue 42), already escaped and linked.
    for (const note of notes) blocks.push(section(note));
    const muted = a.mutedUntil !== undefined ? ` · muted here until ${slackDate(a.mutedUntil)}` : '';
    blocks.push(context(`Trouble since ${slackDate(a.firstBadAt)}${muted}`));
    blocks.push(actions(alertButtons(a)));
    const behind = a.fleets ? ` (${a.fleets.filter((f) => !f.recovered).length} fleets behind it)` : '';
    return finish(
      truncate(
        `${what(a)} ${a.kind === 'Degraded' ? 'are' : 'is'} ${a.state}${a.reason ? `: ${a.reason}` : ''}${behind}`,
        LIMITS.messageText,
      ),
      blocks,
    );
  }
  const lastedMs = a.lastedMs ?? a.recoveredAt - a.firstBadAt;
  const lasted = formatSpan(lastedMs);
  const head = a.fleets
    ? `:white_check_mark: ${a.kind === 'Degraded' ? `Degraded fleets in \`${escapeFit(a.env, 60)}\`` : subject}: every fleet behind it recovered; it was *${escapeFit(a.state, 60)}*${reason}`
    : `:white_check_mark: ${subject} recovered: it was *${escapeFit(a.state, 60)}*${reason}`;
  blocks.push(section(head));
  if (a.fleets) blocks.push(section(fleetLines(a.fleets, false)));
  for (const note of notes) blocks.push(section(note));
  blocks.push(
    context(
      `Trouble from ${slackDate(a.firstBadAt)} for ${lasted}; well again since ${slackDate(a.firstBadAt + lastedMs)}`,
    ),
  );
  return finish(
    a.fleets
      ? `${what(a)}: every fleet behind it recovered after ${lasted}`
      : `${what(a)} recovered after ${lasted}`,
    blocks,
  );
}
