/**
 * The answers of `/harbor watch`, `/harbor watches` and `/harbor unwatch`,
 * What changed and Mute 1 h (issue 29), drawn from the neutral answers of
 * watches/manage.ts. `watches` says whether polling runs or is paused ("the
 * API answered 503 at 14:02"), by which replica, and the open alerts here.
 */

import type { KnownBlock } from '@slack/types';
import { offersRollback } from '../../changes/rollback/undo.js';
import { formatSpan } from '../../format/duration.js';
import type { WatchAlert } from '../../store/watch-types.js';
import type { WatchAnswer, WatchItem, WhatChanged } from '../../watches/manage.js';
import { context, escapeFit, finish, header, mention, section, slackDate } from './blocks.js';
import type { SlackMessage } from './message.js';
import { changeLink, linked, permalink } from './permalink.js';
import { rowActions } from './row-actions.js';

const plainList = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** The answer to watch, unwatch or watches. */
export function renderWatchAnswer(a: WatchAnswer, commandName: string): SlackMessage {
  switch (a.kind) {
    case 'watching': {
      const env = `\`${escapeFit(a.env, 60)}\``;
      const head = a.added
        ? `:eyes: This channel now watches ${env}: ${plainList(a.covered)}.`
        : `This channel already watches ${env} (${plainList(a.covered)}); nothing changed.`;
      const blocks: KnownBlock[] = [section(head)];
      for (const l of a.left) blocks.push(section(`${l.plural} are left out: ${escapeFit(l.reason, 600)}.`));
      blocks.push(
        context(
          `Listed every ${formatSpan(a.intervalMs)}; trouble that lasts ${formatSpan(a.settleMs)} posts one alert here, and the same message says when it recovered. \`${commandName} unwatch ${escapeFit(a.env, 60)}\` ends it.`,
        ),
      );
      return finish(
        a.added ? `This channel now watches ${a.env}` : `This channel already watches ${a.env}`,
        blocks,
      );
    }
    case 'unwatched': {
      const env = `\`${escapeFit(a.env, 60)}\``;
      const text = a.removed
        ? `This channel no longer watches ${env}; alerts already posted stay as they are.`
        : `This channel was not watching ${env}; nothing changed.`;
      const still = a.still.length
        ? ` It still watches ${a.still.map((e) => `\`${escapeFit(e, 60)}\``).join(', ')}.`
        : '';
      return finish(text.replace(/`/g, ''), [section(`${text}${still}`)]);
    }
    case 'watches': {
      if (a.items.length === 0) {
        const text = `This channel watches no environment. \`${commandName} watch <env>\` starts one.`;
        return finish('This channel watches no environment', [section(text)]);
      }
      const blocks: KnownBlock[] = [header('Watches of this channel')];
      for (const item of a.items.slice(0, 20)) blocks.push(...itemBlocks(item, a.intervalMs));
      blocks.push(context(`Trouble must last ${formatSpan(a.settleMs)} before it alerts.`));
      return finish(`This channel watches ${a.items.map((i) => i.env).join(', ')}`, blocks);
    }
  }
}

function pollState(item: WatchItem, intervalMs: number): string {
  const p = item.poller;
  if (p?.pausedAt !== undefined) {
    const answered = p.pausedStatus ? `the API answered ${p.pausedStatus}` : 'the API did not answer';
    const retry = p.resumeAt !== undefined ? `; next try ${slackDate(p.resumeAt)}` : '';
    return `:pause_button: polling paused: ${answered} at ${slackDate(p.pausedAt)}${retry}`;
  }
  if (p?.lastPollAt === undefined)
    return `:hourglass_flowing_sand: not polled yet (every ${formatSpan(intervalMs)})`;
  return `:white_check_mark: polled ${slackDate(p.lastPollAt)}, every ${formatSpan(intervalMs)}`;
}

function itemBlocks(item: WatchItem, intervalMs: number): KnownBlock[] {
  const by = item.polledBy ? ` by replica \`${escapeFit(item.polledBy, 60)}\`` : '';
  const open = item.open.length ? item.open.map((al) => `• ${alertLine(al)}`).join('\n') : 'No open alerts.';
  return [
    section(`*\`${escapeFit(item.env, 60)}\`* · ${pollState(item, intervalMs)}${by}\n${open}`),
    context(`Watched since ${slackDate(item.since)}, by ${mention(item.by)}`),
  ];
}

/** One open alert as a line: kind, name, state, since, linked to its message. */
export function alertLine(a: WatchAlert): string {
  const label = `${escapeFit(a.kind, 20)} ${escapeFit(a.name, 80)}: ${escapeFit(a.state, 40)}`;
  const url = a.messageTs ? permalink(a.channel, a.messageTs) : undefined;
  return `${linked(label, url)} since ${slackDate(a.firstBadAt)}`;
}

/**
 * What changed: the changes Harbormaster applied to the alert's object and
 * its region in the last 24 h, newest first, each linked to its message, with
 * Roll back where it recorded its inverse and was not rolled back yet.
 */
export function renderWhatChanged(w: WhatChanged): SlackMessage {
  const subject = `${w.alert.kind} ${w.alert.name} in ${w.alert.env}`;
  const region = w.alert.region ? ` and region \`${escapeFit(w.alert.region, 60)}\`` : '';
  if (w.changes.length === 0) {
    const text = `Harbormaster applied no change to ${escapeFit(subject, 200)}${region} in the last 24 h.`;
    return finish(`No changes to ${subject} in 24 h`, [section(text)]);
  }
  const blocks: KnownBlock[] = [header(`What changed: ${subject}`)];
  for (const c of w.changes) {
    const summary = linked(escapeFit(c.result?.summary ?? c.preview.summary, 300), changeLink(c));
    const rolledBack = c.rolledBackBy ? ` · rolled back by change ${escapeFit(c.rolledBackBy, 80)}` : '';
    blocks.push(
      section(
        `${summary}\n${slackDate(c.updatedAt)} · requested by ${mention(c.requester)} · change \`${escapeFit(c.id, 80)}\`${rolledBack}`,
      ),
    );
    // The way back from the alert: the same Roll back the change's own message offers
    // (`rollback <id>`, which explains instead of acting past its window or on a moved target).
    if (offersRollback(c.undo) && !c.rolledBackBy) {
      blocks.push(
        ...rowActions([
          {
            action: 'rollback',
            command: `rollback ${c.id}`,
            spoken: `Roll back: ${c.result?.summary ?? c.preview.summary}`,
          },
        ]),
      );
    }
  }
  blocks.push(context(`Changes to ${escapeFit(subject, 200)}${region} in the last 24 h, newest first.`));
  return finish(`What changed: ${subject}`, blocks);
}

/** The answer to Mute 1 h. */
export function renderMuted(a: WatchAlert): SlackMessage {
  const until = a.mutedUntil ?? 0;
  const text = `Muted ${escapeFit(a.kind, 20)} \`${escapeFit(a.name, 80)}\` in \`${escapeFit(a.env, 60)}\` here until ${slackDate(until)}: no new alert about it in this channel until then; this one still says when it recovers.`;
  return finish(`Muted ${a.kind} ${a.name} for an hour`, [section(text)]);
}
