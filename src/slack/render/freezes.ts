/**
 * The answers of `/harbor freeze`, `/harbor unfreeze` and `/harbor freezes`
 * (issue 41), drawn from the neutral answers of freezes/manage.ts. Instants
 * are Slack date tokens, so each reader sees their own time zone.
 */

import type { KnownBlock } from '@slack/types';
import type { FreezeAnswer } from '../../freezes/manage.js';
import type { Freeze } from '../../freezes/types.js';
import { context, escapeFit, finish, header, mention, section, slackDate } from './blocks.js';
import type { SlackMessage } from './message.js';

const env = (name: string) => `\`${escapeFit(name, 60)}\``;

/** One freeze in a line: where, who or which window, since, until, why. */
export function freezeLine(f: Freeze): string {
  const reason = f.reason ? ` — _${escapeFit(f.reason, 300)}_` : '';
  if (f.kind === 'window') {
    return `${env(f.env)}: policy window \`${escapeFit(f.name, 60)}\` (${escapeFit(f.schedule, 100)}), ${slackDate(f.since)} until ${slackDate(f.until)}${reason}`;
  }
  const until = f.until !== undefined ? `until ${slackDate(f.until)}` : '*until someone unfreezes it*';
  return `${env(f.env)}: frozen by ${mention(f.by)} ${slackDate(f.since)}, ${until}${reason}`;
}

function stillWorks(breakGlass: boolean): string {
  return `Reads, watches and rollbacks of changes applied before the freeze still work.${
    breakGlass
      ? ' A change that cannot wait takes `--break-glass <reason>` and the break-glass approvers’ approval.'
      : ' The policy names no break-glass approvers, so nothing else goes through.'
  }`;
}

/** The answer to freeze, unfreeze or freezes. */
export function renderFreezeAnswer(a: FreezeAnswer, commandName: string): SlackMessage {
  switch (a.kind) {
    case 'frozen': {
      const f = a.freeze;
      const until =
        f.kind === 'manual' && f.until === undefined
          ? `until someone unfreezes it (\`${commandName} unfreeze ${escapeFit(f.env, 60)}\`): no end was given`
          : `until ${slackDate(f.until as number)}`;
      const blocks: KnownBlock[] = [
        section(
          `:snowflake: ${mention(f.kind === 'manual' ? f.by : '')} froze ${env(f.env)} ${until}.${f.reason ? ` Reason: _${escapeFit(f.reason, 300)}_.` : ''} Every change there is refused meanwhile, at request, Confirm, Approve and apply.`,
        ),
      ];
      if (a.replaced.length > 0)
        blocks.push(section(`It replaces ${a.replaced.map((r) => freezeLine(r)).join('; ')}.`));
      if (a.windows.length > 0)
        blocks.push(section(`The policy freezes it too: ${a.windows.map((w) => freezeLine(w)).join('; ')}.`));
      blocks.push(context(stillWorks(a.breakGlass)));
      return finish(`${f.env} is frozen`, blocks);
    }
    case 'unfrozen': {
      const head =
        a.ended.length > 0
          ? `:sunny: ${env(a.env)} is no longer frozen by ${a.ended.map((f) => (f.kind === 'manual' ? mention(f.by) : f.name)).join(', ')}.`
          : `${env(a.env)} was not frozen by anyone; nothing changed.`;
      const blocks: KnownBlock[] = [section(head)];
      if (a.windows.length > 0)
        blocks.push(
          section(
            `It stays frozen by the policy: ${a.windows.map((w) => freezeLine(w)).join('; ')}. A policy window ends only when the policy file changes.`,
          ),
        );
      return finish(a.ended.length > 0 ? `${a.env} is no longer frozen` : `${a.env} was not frozen`, blocks);
    }
    case 'freezes': {
      if (a.active.length === 0 && a.upcoming.length === 0) {
        return finish('Nothing is frozen', [
          section(
            `Nothing is frozen and no policy window comes up in the next week. \`${commandName} freeze <env> for 2h <reason>\` freezes an environment.`,
          ),
        ]);
      }
      const blocks: KnownBlock[] = [header('Freezes')];
      blocks.push(
        section(
          a.active.length > 0
            ? `*In force*\n${a.active
                .slice(0, 20)
                .map((f) => `• ${freezeLine(f)}`)
                .join('\n')}`
            : '*In force*\nNothing is frozen now.',
        ),
      );
      if (a.upcoming.length > 0)
        blocks.push(
          section(
            `*Coming up (policy windows)*\n${a.upcoming
              .slice(0, 20)
              .map((f) => `• ${freezeLine(f)}`)
              .join('\n')}`,
          ),
        );
      blocks.push(context(stillWorks(a.breakGlass)));
      const text =
        a.active.length > 0
          ? `Frozen: ${[...new Set(a.active.map((f) => f.env))].join(', ')}`
          : 'Nothing is frozen now';
      return finish(text, blocks);
    }
  }
}
