import {
  HELP_TOPICS,
  type HelpForm,
  type HelpTopic,
  OPERATION_HELP,
  type OperationFormId,
} from '../../operations/index.js';

/**
 * Every form of the `/harbor` command in one table. The parser quotes these in
 * usage answers and the help renders them, so what the bot says it accepts and
 * what it does accept cannot drift apart. The command name is configurable,
 * so forms and examples are stored without it and rendered with it.
 */

export { HELP_TOPICS, type HelpTopic } from '../../operations/index.js';

type Form = HelpForm;

/** The forms no operation owns: releases, approvals, history, help. */
const OWN_FORMS = {
  'release.start': {
    words: ['release', 'start'],
    args: ['<title...>'],
    flags: [],
    description: 'Start a release: a message whose thread gathers the work of the release.',
    example: 'release start Season 4 launch',
    topic: 'releases',
  },
  'release.end': {
    words: ['release', 'end'],
    args: ['<title-or-id...>'],
    flags: [],
    description: 'End an open release, named by its title or id.',
    example: 'release end Season 4 launch',
    topic: 'releases',
  },
  approvals: {
    words: ['approvals'],
    args: [],
    flags: [],
    description: 'List the pending approvals you can act on, and your own requests waiting on others.',
    example: 'approvals',
    topic: 'approvals',
  },
  history: {
    words: ['history'],
    args: ['[<env-or-name>]'],
    flags: [],
    description:
      'Recent changes from the audit log: who, what, when, the outcome; optionally of one environment or name.',
    example: 'history prod',
    topic: 'history',
  },
  help: {
    words: ['help'],
    args: ['[<topic>]'],
    flags: [],
    description: 'Show this overview, or every form of one topic.',
    example: 'help formations',
    topic: 'help',
  },
} as const satisfies Record<string, Form>;

export type FormId = OperationFormId | keyof typeof OWN_FORMS;

/**
 * Every form by id, in help order: by topic, and within a topic the
 * operations' forms in catalogue order (src/operations/catalogue.ts), then
 * the bot's own.
 */
const FORMS = new Map<FormId, Form>(
  [...OPERATION_HELP, ...(Object.entries(OWN_FORMS) as [FormId, Form][])].sort(
    ([, a], [, b]) => HELP_TOPICS.indexOf(a.topic) - HELP_TOPICS.indexOf(b.topic),
  ),
);

/** Every form id, in help order. */
export const FORM_IDS: readonly FormId[] = [...FORMS.keys()];

/** The form with this id. */
export function getForm(id: FormId): Form {
  const form = FORMS.get(id);
  if (!form) throw new Error(`no form ${id}`);
  return form;
}

/** The form as users type it, e.g. `/harbor vessels <env>`. */
export function renderForm(id: FormId, commandName: string): string {
  const form = getForm(id);
  const flags = form.flags.map((f) => `[${f.value ? `${f.name} ${f.value}` : f.name}]`);
  return [commandName, ...form.words, ...form.args, ...flags].join(' ');
}

/** The form's example with the command name, e.g. `/harbor vessels dev`. */
export function renderExample(id: FormId, commandName: string): string {
  return `${commandName} ${getForm(id).example}`;
}

/** The ids of the forms in a help topic, in help order. */
export function formsOfTopic(topic: HelpTopic): FormId[] {
  return FORM_IDS.filter((id) => getForm(id).topic === topic);
}

/** The first words of all forms: the commands a user can start with. */
export const COMMAND_WORDS: readonly string[] = [
  ...new Set(FORM_IDS.map((id) => getForm(id).words[0] as string)),
];

/** The sub-commands of a command word that has them (`formation` → show, add, remove), else []. */
export function subCommands(word: string): string[] {
  const subs = FORM_IDS.map((id) => getForm(id).words).filter((w) => w[0] === word && w.length > 1);
  return [...new Set(subs.map((w) => w[1] as string))];
}

/** The ids of every form starting with `word`. */
export function formsOfWord(word: string): FormId[] {
  return FORM_IDS.filter((id) => getForm(id).words[0] === word);
}
