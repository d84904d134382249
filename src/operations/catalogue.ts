/**
 * Every operation, one descriptor each: its id, whether it reads or changes,
 * the policy's words for it, its forms of the command (help and usage quote
 * them), the form that asks for it, and what recovery and messages need to
 * know. The policy's operation list, the grammar's form table, the modals'
 * kinds and the change engine's tables are derived from this one table, or
 * checked against it by the compiler (`Record<ChangeOperation, …>`). The
 * order is the order help lists the forms within a topic.
 */
import type { OperationDescriptor, Target } from './descriptor.js';

function inEnv(t: Target): string {
  return t.environment ? ` in environment ${t.environment}` : '';
}

export const OPERATION_DESCRIPTORS = {
  'images.list': {
    kind: 'read',
    action: (t) => `list images${t.branch ? ` on branch ${t.branch}` : ''}`,
    help: {
      images: {
        words: ['images'],
        args: ['<branch>', '[<image>[:<tag>]]'],
        flags: [],
        description: 'List the images in a branch, or the tags of one image.',
        example: 'images dev game-server',
        topic: 'images',
      },
    },
  },
  'image.promote': {
    kind: 'change',
    // Sets back each Armada/ArmadaSet image its ImageUpdaters rolled out (judged per target as
    // armada.image or armadaset.image); not offered when it rolled out to none (the undo says why).
    rollback: { inverse: 'armadaset.image' },
    action: (t) =>
      `promote images${t.sourceBranch ? ` from ${t.sourceBranch}` : ''}${t.branch ? ` into branch ${t.branch}` : ''}`,
    form: { modal: 'promote', title: 'Promote image' },
    whereToLook: (s, token) =>
      `ImagePromotion ${token} and image ${s('image')}:${s('tag')} in branch ${s('targetBranch')}`,
    branchFields: ['sourceBranch', 'targetBranch'],
    landsLater: true,
    guardable: true,
    help: {
      promote: {
        words: ['promote'],
        args: ['<image>:<tag>', 'from', '<source-branch>', 'to', '<target-branch>'],
        flags: [
          {
            name: '--guard',
            value: '<duration>',
            description:
              'roll it back automatically if it goes wrong within this long (where the policy allows: 90s, 15m, 1h)',
          },
          {
            name: '--no-guard',
            description: "no automatic rollback (where the policy's guard is optional)",
          },
        ],
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
    },
  },
  'vessels.list': {
    kind: 'read',
    shows: { kind: 'Vessel', field: 'vessel' },
    action: (t) => `list vessels${inEnv(t)}`,
    help: {
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
    },
  },
  'vessel.create': {
    kind: 'change',
    rollback: { inverse: 'vessel.delete' },
    action: (t) => `create vessels${inEnv(t)}`,
    form: {
      modal: 'vessel.create',
      where: 'environment',
      title: 'Create vessel',
      releaseOption: 'Create vessel',
    },
    whereToLook: (s) => `vessel ${s('name')} in environment ${s('environment')}`,
    createsVessels: true,
    help: {
      'vessel.create': {
        words: ['vessel', 'create'],
        args: ['<env>'],
        flags: [],
        description: 'Open a form to create a vessel in an environment.',
        example: 'vessel create dev',
        topic: 'vessels',
        opensModal: true,
      },
    },
  },
  'vessel.delete': {
    kind: 'change',
    rollback: { inverse: 'vessel.create' },
    action: (t) => `delete ${t.vessel ? `vessel ${t.vessel}` : 'vessels'}${inEnv(t)}`,
    form: {
      modal: 'vessel.delete',
      where: 'environment',
      title: 'Delete vessel',
      releaseOption: 'Delete vessel',
    },
    whereToLook: (s) => `vessel ${s('vessel')} in environment ${s('environment')}`,
    help: {
      'vessel.delete': {
        words: ['vessel', 'delete'],
        args: ['<env>', '<vessel>'],
        flags: [],
        description: 'Delete a vessel (asks for confirmation first).',
        example: 'vessel delete dev duel-1',
        topic: 'vessels',
      },
    },
  },
  'formation.show': {
    kind: 'read',
    shows: { kind: 'Formation', field: 'formation' },
    action: (t) => `show ${t.formation ? `formation ${t.formation}` : 'formations'}${inEnv(t)}`,
    help: {
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
    },
  },
  'formation.add': {
    kind: 'change',
    rollback: { inverse: 'formation.remove' },
    action: (t) => `add vessels to ${t.formation ? `formation ${t.formation}` : 'formations'}${inEnv(t)}`,
    form: { modal: 'formation.add', where: 'formation', title: 'Add to formation' },
    whereToLook: (s) => `formation ${s('formation')} in environment ${s('environment')}`,
    createsVessels: true,
    help: {
      'formation.add': {
        words: ['formation', 'add'],
        args: ['<env>', '<formation>', '<vessel>', '<region>'],
        flags: [
          { name: '--container', value: '<name>', description: 'starts an override for this container' },
          { name: '--image', value: '<image>', description: "the container's image, as image:tag" },
          { name: '--args', value: '"<arg> <arg>..."', description: "the container's arguments, in quotes" },
          { name: '--command', value: '"<cmd> <arg>..."', description: "the container's command, in quotes" },
          {
            name: '--env',
            value: '<NAME=value>',
            description: 'sets one variable; give it once per variable',
          },
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
    },
  },
  'formation.remove': {
    kind: 'change',
    rollback: { inverse: 'formation.add' },
    action: (t) =>
      `remove vessels from ${t.formation ? `formation ${t.formation}` : 'formations'}${inEnv(t)}`,
    form: { modal: 'formation.remove', where: 'formation', title: 'Remove vessel' },
    whereToLook: (s) => `formation ${s('formation')} in environment ${s('environment')}`,
    help: {
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
    },
  },
  'region.show': {
    kind: 'read',
    shows: { kind: 'Region', field: 'region' },
    action: (t) => `show ${t.region ? `region ${t.region}` : 'regions'}${inEnv(t)}`,
    help: {
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
    },
  },
  'sites.list': {
    kind: 'read',
    action: (t) => `list the Sites${t.region ? ` of region ${t.region}` : ''}${inEnv(t)}`,
    help: {
      sites: {
        words: ['sites'],
        args: ['[<region>]'],
        flags: [],
        description:
          'List the Sites (capacity clusters): state, cordon, and the armadas and ArmadaSets behind each, in every environment you may read; a region narrows it to the Sites of its Locations.',
        example: 'sites eu-central',
        topic: 'regions',
      },
    },
  },
  'region.create': {
    kind: 'change',
    rollback: {
      notOffered:
        'Harbormaster does not delete regions (game servers may be scheduled there); delete it in the GameFabric console if it must go',
    },
    action: (t) => `create regions${inEnv(t)}`,
    form: {
      modal: 'region.create',
      where: 'environment',
      title: 'Create region',
      releaseOption: 'Create region',
    },
    whereToLook: (s) => `region ${s('name')} in environment ${s('environment')}`,
    help: {
      'region.create': {
        words: ['region', 'create'],
        args: ['<env>'],
        flags: [],
        description: 'Open a form to create a region in an environment.',
        example: 'region create dev',
        topic: 'regions',
        opensModal: true,
      },
    },
  },
  'region.scheduling': {
    kind: 'change',
    rollback: { inverse: 'region.scheduling' },
    action: (t) => `change the scheduling of ${t.region ? `region ${t.region}` : 'regions'}${inEnv(t)}`,
    form: {
      modal: 'region.scheduling',
      where: 'environment',
      title: 'Region scheduling',
      releaseOption: 'Set region scheduling',
    },
    whereToLook: (s) => `region ${s('region')} (type ${s('type')}) in environment ${s('environment')}`,
    help: {
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
    },
  },
  'logs.read': {
    kind: 'read',
    action: (t) => `read the logs of ${t.vessel ? `vessel ${t.vessel}` : 'vessels'}${inEnv(t)}`,
    form: { modal: 'logs.follow', where: 'environment', title: 'Tail logs' },
    help: {
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
    },
  },
  'armadas.list': {
    kind: 'read',
    action: (t) => `list armadas${inEnv(t)}`,
    help: {
      armadas: {
        words: ['armadas'],
        args: ['<env>'],
        flags: [],
        description:
          'List the armadas and ArmadaSets of an environment: regions, replicas per region type, image, state.',
        example: 'armadas prod',
        topic: 'armadas',
      },
    },
  },
  'armada.show': {
    kind: 'read',
    shows: { kind: 'Armada', field: 'armada' },
    action: (t) => `show ${t.armada ? `armada ${t.armada}` : 'armadas'}${inEnv(t)}`,
    help: {
      'armada.show': {
        words: ['armada', 'show'],
        args: ['<env>', '<armada>'],
        flags: [],
        description: 'Show an armada: replicas per region type, containers, rollout strategy, state.',
        example: 'armada show dev duel',
        topic: 'armadas',
      },
    },
  },
  'armada.scale': {
    kind: 'change',
    rollback: { inverse: 'armada.scale' },
    action: (t) => `scale ${t.armada ? `armada ${t.armada}` : 'armadas'}${inEnv(t)}`,
    form: {
      modal: 'armada.scale',
      where: 'environment',
      title: 'Scale armada',
      releaseOption: 'Scale armada',
    },
    help: {
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
      'armada.scale.modal': {
        words: ['armada', 'scale'],
        args: ['<env>', '[<armada>]'],
        flags: [],
        description: 'Open a form to pick the armada, region type and new min, buffer and max.',
        example: 'armada scale dev duel',
        topic: 'armadas',
        opensModal: true,
      },
    },
  },
  'armadaset.scale': {
    kind: 'change',
    rollback: { inverse: 'armadaset.scale' },
    action: (t) => `scale ${t.armadaSet ? `ArmadaSet ${t.armadaSet}` : 'ArmadaSets'}${inEnv(t)}`,
    form: {
      modal: 'armadaset.scale',
      where: 'environment',
      title: 'Scale ArmadaSet',
      releaseOption: 'Scale ArmadaSet',
    },
    help: {
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
      'armadaset.scale.modal': {
        words: ['armadaset', 'scale'],
        args: ['<env>', '[<armadaset>]'],
        flags: [],
        description: 'Open a form to pick the ArmadaSet, region, region type and new min, buffer and max.',
        example: 'armadaset scale prod arena',
        topic: 'armadas',
        opensModal: true,
      },
    },
  },
  'armada.image': {
    kind: 'change',
    rollsOut: { kind: 'Armada', field: 'armada' },
    guardable: true,
    rollback: { inverse: 'armada.image' },
    action: (t) => `roll out images to ${t.armada ? `armada ${t.armada}` : 'armadas'}${inEnv(t)}`,
    form: {
      modal: 'armada.image',
      where: 'environment',
      title: 'Roll out armada',
      releaseOption: 'Roll out armada',
    },
    help: {
      'armada.image': {
        words: ['armada', 'image'],
        args: ['<env>', '<armada>', '<image>:<tag>'],
        flags: [
          {
            name: '--container',
            value: '<name>',
            description: 'which container (needed when there are several)',
          },
          {
            name: '--guard',
            value: '<duration>',
            description:
              'roll it back automatically if it goes wrong within this long (where the policy allows: 90s, 15m, 1h)',
          },
          {
            name: '--no-guard',
            description: "no automatic rollback (where the policy's guard is optional)",
          },
        ],
        description:
          "Roll an armada out to another build: the image:tag is looked up in the container's branch; the thread follows the rollout.",
        example: 'armada image dev duel game-server:1.1.0',
        topic: 'armadas',
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
    },
  },
  'armadaset.image': {
    kind: 'change',
    rollsOut: { kind: 'ArmadaSet', field: 'armadaSet' },
    guardable: true,
    rollback: { inverse: 'armadaset.image' },
    action: (t) => `roll out images to ${t.armadaSet ? `ArmadaSet ${t.armadaSet}` : 'ArmadaSets'}${inEnv(t)}`,
    form: {
      modal: 'armadaset.image',
      where: 'environment',
      title: 'Roll out ArmadaSet',
      releaseOption: 'Roll out ArmadaSet',
    },
    help: {
      'armadaset.image': {
        words: ['armadaset', 'image'],
        args: ['<env>', '<armadaset>', '<image>:<tag>'],
        flags: [
          {
            name: '--container',
            value: '<name>',
            description: 'which container (needed when there are several)',
          },
          {
            name: '--guard',
            value: '<duration>',
            description:
              'roll it back automatically if it goes wrong within this long (where the policy allows: 90s, 15m, 1h)',
          },
          {
            name: '--no-guard',
            description: "no automatic rollback (where the policy's guard is optional)",
          },
        ],
        description:
          'Roll an ArmadaSet out to another build, in every region; the thread follows the rollout.',
        example: 'armadaset image dev arena game-server:1.2.0',
        topic: 'armadas',
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
    },
  },
  'gameserver.terminate': {
    kind: 'change',
    rollback: {
      notOffered:
        'a terminated game server cannot be brought back (its matches ended with it); start a new one instead',
    },
    action: (t) =>
      `terminate ${t.gameServer ? `game server ${t.gameServer}` : 'game servers'}${t.site ? ` on site ${t.site}` : ''}`,
    whereToLook: (s) => `the game servers of site ${s('site')} (is ${s('name')} still listed?)`,
    // No `where`: Sites are in no environment. No releaseOption: an incident action, not a release step.
    form: { modal: 'gameserver.terminate', title: 'Terminate game server', notInReleases: true },
    help: {
      'gameserver.terminate': {
        words: ['gameserver', 'terminate'],
        args: ['<site>', '<game-server>'],
        flags: [],
        description:
          'Terminate a game server that does not shut down by itself (asks for confirmation first; an allocated match on it ends).',
        example: 'gameserver terminate fra-bm-1-01 duel-baremetal-0',
        topic: 'armadas',
      },
      'gameserver.terminate.modal': {
        words: ['gameserver', 'terminate'],
        args: [],
        flags: [],
        description: 'Open a form to name the Site and the game server to terminate.',
        example: 'gameserver terminate',
        topic: 'armadas',
        opensModal: true,
      },
    },
  },
  'change.rollback': {
    kind: 'change',
    rollback: {
      notOffered: 'it is itself a rollback, and a rollback is not rolled back: make the change again instead',
    },
    // Judged on the target of the change it undoes (and, apart, as its inverse operation).
    action: (t) => `roll back changes${inEnv(t)}`,
    whereToLook: () => 'the target of the change it rolls back (does it show the state before that change?)',
    help: {
      'change.rollback': {
        words: ['rollback'],
        args: ['<change-id>'],
        flags: [],
        description:
          'Roll back an applied change (the id its buttons carry, shown in history): a preview of the inverse, then Confirm, or approval where policy asks. Refused when its target changed since.',
        example: 'rollback 0d6c1f2e-4b7a-4c39-9a51-7f1e2d3c4b5a',
        topic: 'history',
      },
    },
  },
  'armadaset.show': {
    kind: 'read',
    shows: { kind: 'ArmadaSet', field: 'armadaSet' },
    action: (t) => `show ${t.armadaSet ? `ArmadaSet ${t.armadaSet}` : 'ArmadaSets'}${inEnv(t)}`,
    help: {
      'armadaset.show': {
        words: ['armadaset', 'show'],
        args: ['<env>', '<armadaset>'],
        flags: [],
        description: 'Show an ArmadaSet: its regions, the armada it runs in each, containers, state.',
        example: 'armadaset show prod arena',
        topic: 'armadas',
      },
    },
  },
  // Watches (issue 29): a channel subscribes to an environment's trouble. No Change: answered at once.
  'watch.manage': {
    kind: 'read',
    action: (t) => `watch or unwatch${t.environment ? ` environment ${t.environment}` : ' environments'}`,
    help: {
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
    },
  },
  // Freezes (issue 41): hold every change to an environment. No Change: answered at once, audited.
  'freeze.manage': {
    kind: 'read',
    action: (t) => `freeze or unfreeze${t.environment ? ` environment ${t.environment}` : ' environments'}`,
    help: {
      freeze: {
        words: ['freeze'],
        args: ['<env>', '[for <duration> | until <time>]', '[<reason...>]'],
        flags: [],
        description:
          'Refuse every change to an environment (at request, Confirm, Approve and apply) for a duration (90s, 15m, 2h, 1d), until an ISO 8601 time with an offset, or, with neither, until unfreeze.',
        example: 'freeze prod for 2h tournament final',
        topic: 'freezes',
      },
      unfreeze: {
        words: ['unfreeze'],
        args: ['<env>'],
        flags: [],
        description: 'End the freeze people put on an environment (a policy window stays in force).',
        example: 'unfreeze prod',
        topic: 'freezes',
      },
      freezes: {
        words: ['freezes'],
        args: [],
        flags: [],
        description:
          'List the freezes in force and the policy windows coming up: who froze, why, until when.',
        example: 'freezes',
        topic: 'freezes',
      },
    },
  },
  // Scheduled changes (issue 41): what waits for its time, with Cancel. No Change: answered at once.
  'changes.scheduled': {
    kind: 'read',
    action: (t) => `list scheduled changes${inEnv(t)}`,
    help: {
      scheduled: {
        words: ['scheduled'],
        args: ['[<env>]'],
        flags: [],
        description:
          'List the scheduled changes not started yet (requested with `--at <time>` or a form’s When field): when each applies, who asked, where it stands, with Cancel.',
        example: 'scheduled prod',
        topic: 'freezes',
      },
    },
  },
} as const satisfies Record<string, OperationDescriptor>;
