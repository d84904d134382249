/**
 * Every form of the `/harbor` command in one table. The parser quotes these in
 * usage answers and the help renders them, so what the bot says it accepts and
 * what it does accept cannot drift apart. The command name is configurable,
 * so forms and examples are stored without it and rendered with it.
 */

/** Help topics, in the order the overview shows them. */
export const HELP_TOPICS = [
  'images',
  'vessels',
  'formations',
  'regions',
  'armadas',
  'logs',
  'watches',
  'releases',
  'approvals',
  'history',
  'help',
] as const;

export type HelpTopic = (typeof HELP_TOPICS)[number];

/** A flag a form accepts. `value` is the placeholder of its value; a flag without one is a switch. */
interface FlagSpec {
  name: string;
  value?: string;
  description: string;
}

interface Form {
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

/** The forms, keyed by a stable id, in the order help lists them. */
const FORMS = {
  images: {
    words: ['images'],
    args: ['<branch>', '[<image>[:<tag>]]'],
    flags: [],
    description: 'List the images in a branch, or the tags of one image.',
    example: 'images dev game-server',
    topic: 'images',
  },
  promote: {
    words: ['promote'],
    args: ['<image>:<tag>', 'from', '<source-branch>', 'to', '<target-branch>'],
    flags: [],
    description: 'Copy an image tag from one branch to another.',
    example: 'promote game-server:1.2.0 from dev to prod',
    topic: 'images',
  },
  'promote.modal': {
    words: ['promote'],
    args: [],
    flags: [],
    description: 'Open a form to pick the image, tag and branches.',
    example: 'promote',
    topic: 'images',
    opensModal: true,
  },
  vessels: {
    words: ['vessels'],
    args: ['<env>'],
    flags: [],
    description: 'List the vessels of an environment and their state.',
    example: 'vessels dev',
    topic: 'vessels',
  },
  'vessel.show': {
    words: ['vessel', 'show'],
    args: ['<env>', '<vessel>'],
    flags: [],
    description: 'Show a vessel: region, state, containers and images, formation.',
    example: 'vessel show dev lobby-1',
    topic: 'vessels',
  },
  'vessel.create': {
    words: ['vessel', 'create'],
    args: ['<env>'],
    flags: [],
    description: 'Open a form to create a vessel in an environment.',
    example: 'vessel create dev',
    topic: 'vessels',
    opensModal: true,
  },
  'vessel.delete': {
    words: ['vessel', 'delete'],
    args: ['<env>', '<vessel>'],
    flags: [],
    description: 'Delete a vessel (asks for confirmation first).',
    example: 'vessel delete dev duel-1',
    topic: 'vessels',
  },
  formations: {
    words: ['formations'],
    args: ['<env>'],
    flags: [],
    description: 'List the formations of an environment: vessels, template images, state.',
    example: 'formations dev',
    topic: 'formations',
  },
  'formation.show': {
    words: ['formation', 'show'],
    args: ['<env>', '<formation>'],
    flags: [],
    description: 'Show a formation: its template and vessels.',
    example: 'formation show dev lobby',
    topic: 'formations',
  },
  'formation.add': {
    words: ['formation', 'add'],
    args: ['<env>', '<formation>', '<vessel>', '<region>'],
    flags: [
      { name: '--container', value: '<name>', description: 'starts an override for this container' },
      { name: '--image', value: '<image>', description: "the container's image, as image:tag" },
      { name: '--args', value: '"<arg> <arg>..."', description: "the container's arguments, in quotes" },
      { name: '--command', value: '"<cmd> <arg>..."', description: "the container's command, in quotes" },
      { name: '--env', value: '<NAME=value>', description: 'sets one variable; give it once per variable' },
    ],
    description:
      'Add a vessel to a formation, optionally overriding container images, arguments, command or env.',
    example:
      'formation add dev lobby lobby-3 eu-central --container game-server --image game-server:1.2.0 --args "--mode ranked"',
    topic: 'formations',
  },
  'formation.add.modal': {
    words: ['formation', 'add'],
    args: ['<env>', '<formation>'],
    flags: [],
    description: 'Open a form to add a vessel to a formation.',
    example: 'formation add dev lobby',
    topic: 'formations',
    opensModal: true,
  },
  'formation.remove': {
    words: ['formation', 'remove'],
    args: ['<env>', '<formation>', '<vessel>'],
    flags: [],
    description: 'Remove a vessel from a formation (asks for confirmation first).',
    example: 'formation remove dev lobby lobby-2',
    topic: 'formations',
  },
  'formation.remove.modal': {
    words: ['formation', 'remove'],
    args: ['<env>', '[<formation>]'],
    flags: [],
    description: 'Open a form to pick the vessel to remove (and the formation, when not given).',
    example: 'formation remove dev lobby',
    topic: 'formations',
    opensModal: true,
  },
  regions: {
    words: ['regions'],
    args: ['<env>'],
    flags: [],
    description: 'List the regions of an environment and the scheduling of their types.',
    example: 'regions dev',
    topic: 'regions',
  },
  'region.show': {
    words: ['region', 'show'],
    args: ['<env>', '<region>'],
    flags: [],
    description: 'Show a region: its types, locations and scheduling.',
    example: 'region show dev eu-central',
    topic: 'regions',
  },
  'region.create': {
    words: ['region', 'create'],
    args: ['<env>'],
    flags: [],
    description: 'Open a form to create a region in an environment.',
    example: 'region create dev',
    topic: 'regions',
    opensModal: true,
  },
  'region.scheduling': {
    words: ['region', 'scheduling'],
    args: ['<env>', '<region>', '<type>', '<Packed|Distributed>'],
    flags: [],
    description: 'Set the scheduling strategy of a region type.',
    example: 'region scheduling prod eu-central baremetal Distributed',
    topic: 'regions',
  },
  'region.scheduling.modal': {
    words: ['region', 'scheduling'],
    args: ['<env>', '[<region>]', '[<type>]'],
    flags: [],
    description: 'Open a form to pick the region, type and scheduling strategy.',
    example: 'region scheduling dev eu-central',
    topic: 'regions',
    opensModal: true,
  },
  armadas: {
    words: ['armadas'],
    args: ['<env>'],
    flags: [],
    description:
      'List the armadas and ArmadaSets of an environment: regions, replicas per region type, image, state.',
    example: 'armadas prod',
    topic: 'armadas',
  },
  'armada.show': {
    words: ['armada', 'show'],
    args: ['<env>', '<armada>'],
    flags: [],
    description: 'Show an armada: replicas per region type, containers, rollout strategy, state.',
    example: 'armada show dev duel',
    topic: 'armadas',
  },
  'armada.scale': {
    words: ['armada', 'scale'],
    args: ['<env>', '<armada>'],
    flags: [
      {
        name: '--type',
        value: '<region-type>',
        description: 'which region type (needed when there are several)',
      },
      { name: '--min', value: '<n>', description: 'minimum game servers' },
      { name: '--max', value: '<n>', description: 'maximum game servers; 0 drains the region type' },
      { name: '--buffer', value: '<n>', description: 'game servers kept Ready for new matches' },
    ],
    description: 'Scale one region type of an armada: min, max and buffer (max at least min and buffer).',
    example: 'armada scale dev duel --type cloud --min 2 --max 30',
    topic: 'armadas',
  },
  'armadaset.scale': {
    words: ['armadaset', 'scale'],
    args: ['<env>', '<armadaset>'],
    flags: [
      { name: '--region', value: '<region>', description: 'which region of the ArmadaSet' },
      {
        name: '--type',
        value: '<region-type>',
        description: 'which region type (needed when there are several)',
      },
      { name: '--min', value: '<n>', description: 'minimum game servers' },
      { name: '--max', value: '<n>', description: 'maximum game servers; 0 drains the region type' },
      { name: '--buffer', value: '<n>', description: 'game servers kept Ready for new matches' },
    ],
    description: 'Scale one region type of one region of an ArmadaSet.',
    example: 'armadaset scale prod arena --region eu-central --max 16',
    topic: 'armadas',
  },
  'armada.image': {
    words: ['armada', 'image'],
    args: ['<env>', '<armada>', '<image>:<tag>'],
    flags: [
      {
        name: '--container',
        value: '<name>',
        description: 'which container (needed when there are several)',
      },
    ],
    description:
      "Roll an armada out to another build: the image:tag is looked up in the container's branch; the thread follows the rollout.",
    example: 'armada image dev duel game-server:1.1.0',
    topic: 'armadas',
  },
  'armadaset.image': {
    words: ['armadaset', 'image'],
    args: ['<env>', '<armadaset>', '<image>:<tag>'],
    flags: [
      {
        name: '--container',
        value: '<name>',
        description: 'which container (needed when there are several)',
      },
    ],
    description: 'Roll an ArmadaSet out to another build, in every region; the thread follows the rollout.',
    example: 'armadaset image dev arena game-server:1.2.0',
    topic: 'armadas',
  },
  'armada.scale.modal': {
    words: ['armada', 'scale'],
    args: ['<env>', '[<armada>]'],
    flags: [],
    description: 'Open a form to pick the armada, region type and new min, buffer and max.',
    example: 'armada scale dev duel',
    topic: 'armadas',
    opensModal: true,
  },
  'armadaset.scale.modal': {
    words: ['armadaset', 'scale'],
    args: ['<env>', '[<armadaset>]'],
    flags: [],
    description: 'Open a form to pick the ArmadaSet, region, region type and new min, buffer and max.',
    example: 'armadaset scale prod arena',
    topic: 'armadas',
    opensModal: true,
  },
  'armada.image.modal': {
    words: ['armada', 'image'],
    args: ['<env>', '[<armada>]'],
    flags: [],
    description: 'Open a form to pick the armada, container and image:tag to roll out.',
    example: 'armada image dev duel',
    topic: 'armadas',
    opensModal: true,
  },
  'armadaset.image.modal': {
    words: ['armadaset', 'image'],
    args: ['<env>', '[<armadaset>]'],
    flags: [],
    description: 'Open a form to pick the ArmadaSet, container and image:tag to roll out.',
    example: 'armadaset image prod arena',
    topic: 'armadas',
    opensModal: true,
  },
  'armadaset.show': {
    words: ['armadaset', 'show'],
    args: ['<env>', '<armadaset>'],
    flags: [],
    description: 'Show an ArmadaSet: its regions, the armada it runs in each, containers, state.',
    example: 'armadaset show prod arena',
    topic: 'armadas',
  },
  logs: {
    words: ['logs'],
    args: ['<env>', '<vessel>'],
    flags: [
      { name: '--follow', description: 'keep the tail updating as new lines arrive' },
      { name: '--lines', value: '<n>', description: 'how many recent lines, 1 to 1000 (default 50)' },
      { name: '--container', value: '<name>', description: 'which container, for vessels with sidecars' },
    ],
    description: "Show the latest log lines of a vessel's container.",
    example: 'logs dev lobby-1 --follow --lines 100',
    topic: 'logs',
  },
  'logs.modal': {
    words: ['logs'],
    args: ['<env>'],
    flags: [],
    description: 'Open a form to pick a vessel (and container) and follow its logs live.',
    example: 'logs dev',
    topic: 'logs',
    opensModal: true,
  },
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
  watch: {
    words: ['watch'],
    args: ['<env>'],
    flags: [],
    description:
      'Alert this channel to trouble in an environment: a fleet Degraded, a vessel in Error, a fleet with no ready servers.',
    example: 'watch prod',
    topic: 'watches',
  },
  watches: {
    words: ['watches'],
    args: [],
    flags: [],
    description: "List this channel's watches, whether polling runs or is paused, and the open alerts.",
    example: 'watches',
    topic: 'watches',
  },
  unwatch: {
    words: ['unwatch'],
    args: ['<env>'],
    flags: [],
    description: "End this channel's watch of an environment.",
    example: 'unwatch prod',
    topic: 'watches',
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

export type FormId = keyof typeof FORMS;

/** Every form id, in help order. */
export const FORM_IDS = Object.keys(FORMS) as FormId[];

/** The form with this id. */
export function getForm(id: FormId): Form {
  return FORMS[id];
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
