/**
 * What a per-row button (Show, Logs, Delete, Remove, Promote, Roll back) asks for. Its value is
 * command text, and a signature proves only that the click came through
 * Slack, not that the value is the one the bot drew: so it is parsed by the
 * same grammar as typed text, and must be the kind of command the button
 * names (a Show button never deletes). What it then runs is authorized like
 * the typed command.
 */

import { nameProblem } from '../../api-shapes/names.js';
import { UserError } from '../../errors/user-error.js';
import { describe, type Operation } from '../../operations/index.js';
import type { Command } from '../grammar/command.js';
import { FORM_IDS, getForm } from '../grammar/forms.js';
import { parseCommand } from '../grammar/parse.js';
import type { RowAction } from '../ids.js';
import { splitImageRef } from '../modals/parse-text.js';

/** A command to run as if typed, or the promote form to open with a branch and image chosen. */
export type RowCommand =
  | { kind: 'run'; command: Exclude<Command, { kind: 'modal' }>; text: string }
  | { kind: 'promote'; branch: string; image: string };

/** The commands a Show button may run: those whose form is `<noun> show ...` (vessel, formation, region, armada, ArmadaSet). */
const SHOW_KINDS: ReadonlySet<string> = new Set(FORM_IDS.filter((id) => getForm(id).words[1] === 'show'));

/** The words of the change each row button may run: Delete deletes a vessel, Remove takes one out of a formation. */
const ROW_CHANGE_WORDS = {
  delete: 'vessel delete',
  remove: 'formation remove',
  rollback: 'rollback',
} as const;

/** Whether `operation` is the one the command words `words` run (its descriptor lists that form). */
function hasForm(operation: Operation, words: string): boolean {
  return Object.values(describe(operation).help).some((form) => form.words.join(' ') === words);
}

const WHAT: Record<RowAction, string> = {
  show: 'a show command',
  logs: 'a logs command',
  delete: 'a vessel delete',
  remove: 'a formation remove',
  promote: 'an image and the branch it is in',
  rollback: 'a rollback of a change',
};

/** The command behind a click on `action` carrying `value`; UserError when the value is not one. */
export function readRowCommand(action: RowAction, value: string, commandName: string): RowCommand {
  const text = value.trim();
  if (action === 'promote') return readPromote(text);
  const parsed = parseCommand(text, commandName);
  const command = parsed.ok ? parsed.command : undefined;
  const fits =
    command !== undefined &&
    ((action === 'show' && SHOW_KINDS.has(command.kind)) ||
      (action === 'logs' && command.kind === 'logs' && !command.follow) ||
      ((action === 'delete' || action === 'remove' || action === 'rollback') &&
        command.kind === 'change' &&
        hasForm(command.operation, ROW_CHANGE_WORDS[action])));
  if (!fits || command.kind === 'modal') throw refused(action);
  return { kind: 'run', command, text };
}

// `promote <image>:<tag> from <branch>`: the form asks for the target branch.
function readPromote(text: string): RowCommand {
  const [word, ref, from, branch, ...extra] = text.split(/\s+/);
  const image = ref ? splitImageRef(ref) : undefined;
  if (word !== 'promote' || !image || from !== 'from' || !branch || extra.length > 0 || nameProblem(branch)) {
    throw refused('promote');
  }
  return { kind: 'promote', branch, image: `${image.image}:${image.tag}` };
}

function refused(action: RowAction): UserError {
  const label = action[0]?.toUpperCase() + action.slice(1);
  return new UserError(
    `This ${label} button does not carry ${WHAT[action]}, so nothing was done. Run the list again and use its buttons.`,
  );
}
