/**
 * The shape of one operation's descriptor: what every room needs to know
 * about an operation besides how it is planned and applied. The policy reads
 * its words, the grammar and help its forms, the modals where its form works.
 * A leaf: it knows nothing of Slack, of the API client or of zod.
 */

/**
 * What an operation acts on. For `image.promote`, `branch` is the target branch
 * and `sourceBranch` the branch the image is copied from.
 */
export interface Target {
  environment?: string;
  branch?: string;
  sourceBranch?: string;
  region?: string;
  formation?: string;
  vessel?: string;
  armada?: string;
  armadaSet?: string;
  /** A Site (a capacity cluster, in no environment), for operations on its game servers. */
  site?: string;
  gameServer?: string;
}

/** Target fields in the order they are described in messages. */
export const TARGET_FIELDS = [
  'environment',
  'branch',
  'sourceBranch',
  'region',
  'formation',
  'vessel',
  'armada',
  'armadaSet',
  'site',
  'gameServer',
] as const;

export type TargetField = (typeof TARGET_FIELDS)[number];

/** Help topics, in the order the overview shows them. */
export const HELP_TOPICS = [
  'images',
  'vessels',
  'formations',
  'regions',
  'armadas',
  'logs',
  'watches',
  'freezes',
  'releases',
  'approvals',
  'history',
  'help',
] as const;

export type HelpTopic = (typeof HELP_TOPICS)[number];

/** A flag a form accepts. `value` is the placeholder of its value; a flag without one is a switch. */
export interface FlagSpec {
  name: string;
  value?: string;
  description: string;
}

/** One form of the command, as help shows it and the grammar quotes it in usage answers. */
export interface HelpForm {
  /** Leading literal words, e.g. `['formation', 'add']`. */
  words: readonly string[];
  /**
   * What follows the words, as shown to users: `<name>` required, `[...]`
   * optional, bare words literal (promote's `from`/`to`), `<name...>` the rest
   * of the text.
   */
  args: readonly string[];
  flags: readonly FlagSpec[];
  /** One line: what the form does. */
  description: string;
  /** A working example without the command name. */
  example: string;
  topic: HelpTopic;
  /** The form answers with a modal rather than a message. */
  opensModal?: boolean;
}

/** The form (a modal, on Slack) that asks for an operation's input. */
export interface FormDescriptor {
  /** The form's kind, as stored in an open form's metadata (so kept as first shipped). */
  modal: string;
  /** The place the form needs before its fields: an environment, or a formation in one (none: the form asks all). */
  where?: 'environment' | 'formation';
  /** The form's title, at most 24 characters (Slack's limit for a modal title). */
  title: string;
  /**
   * Its label in a release thread's list of change forms ("Add a change…").
   * Absent: the thread offers the form as a button of its own, or it is no change.
   */
  releaseOption?: string;
  /** Not a step of a release (an incident action on one server): no release thread offers it. */
  notInReleases?: boolean;
}

export interface OperationDescriptor {
  /** A read is answered at once; a change goes through the change engine. */
  kind: 'read' | 'change';
  /** The operation on `target` as a verb phrase, for refusals: "scale armada duel in environment dev". */
  action(target: Target): string;
  /** Its forms of the command, keyed by a stable form id, in the order help lists them. */
  help: Readonly<Record<string, HelpForm>>;
  /** The form that asks for its input, when it has one. */
  form?: FormDescriptor;
  /**
   * Where in the hosting API a person can see whether the change took effect
   * (named in "could not confirm" messages); `field` reads the request.
   * Without it, the preview's summary says what to look for.
   */
  whereToLook?(field: (key: string) => string, applyToken: string): string;
  /** Request fields that name branches: a person may type a branch's display name there. */
  branchFields?: readonly string[];
  /** The API accepts the change before it shows (an image copy): recovery rechecks what was applied. */
  landsLater?: boolean;
  /**
   * Its rollback (issue 28): the operation whose policy rules also judge the
   * inverse, or why Roll back is never offered for it.
   */
  rollback?: { inverse: string } | { notOffered: string };
  /** The aftermath is about a Vessel the change created, whose logs are worth a look. */
  createsVessels?: boolean;
  /**
   * A read that shows one object of this kind, named by this target field:
   * watches judge whether a channel may hear about such an object with it.
   * A read whose id is also a form id of its own (`formation show <env> <name>`)
   * gets its grammar Command from this (slack/grammar/command.ts), so the id
   * is not written there.
   */
  shows?: { kind: 'Armada' | 'ArmadaSet' | 'Formation' | 'Region' | 'Vessel'; field: TargetField };
  /**
   * It rolls a build out (issue 42): a policy rule may guard it (`guard: {within: 15m}`), and its
   * command takes `--guard <duration>` and `--no-guard`.
   */
  guardable?: boolean;
  /** A change whose aftermath is a rollout of this kind of fleet (named by `field`), which watches follow. */
  rollsOut?: { kind: 'Armada' | 'ArmadaSet'; field: TargetField };
}
