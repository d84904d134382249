/**
 * The create-vessel modal: one game-server container, its image picked from
 * a branch (choosing the branch reloads the image list), ports and args typed
 * as text and turned into the engine's request shape.
 */
import { nameRule } from '../../api-shapes/names.js';
import type { CreateVesselInput } from '../../changes/requests/vessels.js';
import { escapeMrkdwn, truncate } from '../limits.js';
import { choiceBlocks, contextBlock, sectionBlock, textInput } from './blocks.js';
import { branchChoices, freeName, imageChoices, onlyChoice, regionChoices } from './choices.js';
import { needEnvironment } from './environment.js';
import { addError, missingChoice } from './field-errors.js';
import { parsePorts, splitArgs } from './parse-text.js';
import { readBlock, readChoice, readRaw, TYPED_SUFFIX, textInitial } from './state.js';
import type { ModalDefinition, ViewStateValues } from './types.js';

/** Block ids of the create-vessel modal. */
export const VESSEL_BLOCKS = {
  name: 'name',
  description: 'description',
  region: 'region',
  container: 'container.name',
  branch: 'container.branch',
  image: 'container.image',
  ports: 'container.ports',
  args: 'container.args',
  cpu: 'container.cpu',
  memory: 'container.memory',
} as const;

const B = VESSEL_BLOCKS;
const DEFAULTS = { container: 'game-server', ports: 'game:7777/UDP', cpu: '250m', memory: '512Mi' };
const CONTAINER_FIELDS: Record<string, string> = {
  '': B.container,
  name: B.container,
  branch: B.branch,
  image: B.image,
  ports: B.ports,
  args: B.args,
  cpu: B.cpu,
  memory: B.memory,
};

const typed = (values: ViewStateValues, id: string) => readBlock(values, `${id}${TYPED_SUFFIX}`);

export const vesselCreateModal: ModalDefinition<CreateVesselInput> = {
  submit: 'Preview',
  fallbackBlock: B.name,

  async build(meta, deps, values) {
    const env = needEnvironment(meta);
    const branches = (await deps.queries.branches()) ?? [];
    const branch = readChoice(values, B.branch) ?? branches[0]?.name;
    const [regions, images, vessels] = await Promise.all([
      deps.queries.regions(env),
      branch ? deps.queries.images(branch) : Promise.resolve([]),
      deps.queries.vesselsIn(env),
    ]);
    const taken = (vessels ?? []).map((v) => v.name);
    return [
      contextBlock(`New standalone vessel in environment *${escapeMrkdwn(truncate(env, 200))}*.`),
      textInput({
        blockId: B.name,
        label: 'Vessel name',
        initial: textInitial(values, B.name),
        placeholder: freeName('vessel', taken, taken.length + 1),
        hint: nameRule(),
      }),
      textInput({
        blockId: B.description,
        label: 'Description',
        optional: true,
        initial: textInitial(values, B.description),
      }),
      ...choiceBlocks({
        blockId: B.region,
        label: 'Region',
        choices: regionChoices(regions),
        noun: `regions in ${env}`,
        typeHint: 'a region name (e.g. eu-central)',
        initial: readChoice(values, B.region) ?? onlyChoice(regionChoices(regions)),
        typedInitial: typed(values, B.region),
        // Another environment has other regions: a region picked in the old one is dropped.
        resetKey: env,
      }),
      sectionBlock('*Game server container*'),
      textInput({
        blockId: B.container,
        label: 'Container name',
        initial: textInitial(values, B.container, DEFAULTS.container),
      }),
      ...choiceBlocks({
        blockId: B.branch,
        label: 'Branch',
        choices: branchChoices(branches),
        noun: 'branches',
        typeHint: 'a branch name and press Enter',
        initial: branch,
        typedInitial: typed(values, B.branch),
        reload: true,
      }),
      ...choiceBlocks({
        blockId: B.image,
        label: 'Image',
        choices: imageChoices(images),
        noun: branch ? `images in ${branch}` : 'images',
        typeHint: 'image:tag (e.g. game-server:1.2.0)',
        initial: readChoice(values, B.image),
        typedInitial: typed(values, B.image),
        resetKey: branch ?? '',
        ...(branch ? { suggest: { source: 'images' as const, scope: branch } } : {}),
        hint: 'Newest tags first.',
      }),
      textInput({
        blockId: B.ports,
        label: 'Ports',
        optional: true,
        initial: textInitial(values, B.ports, DEFAULTS.ports),
        hint: 'name:port/protocol, comma-separated, e.g. game:7777/UDP, query:27015/TCP. Add /Passthrough for a fixed port.',
      }),
      textInput({
        blockId: B.args,
        label: 'Arguments',
        optional: true,
        initial: textInitial(values, B.args),
        placeholder: '--max-players 16 --motd "Hello there"',
        hint: 'Split on spaces; quote an argument that contains spaces.',
      }),
      textInput({
        blockId: B.cpu,
        label: 'CPU request',
        optional: true,
        initial: textInitial(values, B.cpu, DEFAULTS.cpu),
        hint: 'Millicores, e.g. 250m (a quarter of a core).',
      }),
      textInput({
        blockId: B.memory,
        label: 'Memory request',
        optional: true,
        initial: textInitial(values, B.memory, DEFAULTS.memory),
        hint: 'e.g. 512Mi or 1Gi.',
      }),
    ];
  },

  read(meta, values) {
    const errors: Record<string, string> = {};
    const required = (id: string, message: string) => {
      const v = readChoice(values, id);
      if (!v) addError(errors, id, message);
      return v;
    };
    if (!meta.environment) addError(errors, B.name, 'This form lost its environment; open it again.');
    const name = required(B.name, 'Give the vessel a name, e.g. lobby-3.');
    const region = required(B.region, 'Choose a region.');
    const container = required(B.container, 'Give the container a name, e.g. game-server.');
    const branch = required(B.branch, 'Choose the branch the image comes from.');
    const image = required(B.image, missingChoice(values, B.image, 'an image', 'image:tag'));
    const ports = parsePorts(readRaw(values, B.ports) ?? '');
    if (!ports.ok) addError(errors, B.ports, ports.error);
    const args = splitArgs(readRaw(values, B.args) ?? '');
    if (!args.ok) addError(errors, B.args, args.error);
    const description = readBlock(values, B.description);
    const cpu = readBlock(values, B.cpu);
    const memory = readBlock(values, B.memory);
    // Anything missing is empty here and has its error above; the operation's schema also names it.
    const input: CreateVesselInput = {
      environment: meta.environment ?? '',
      name: name ?? '',
      region: region ?? '',
      ...(description ? { description } : {}),
      containers: [
        {
          name: container ?? '',
          branch: branch ?? '',
          image: image ?? '',
          ports: ports.ok ? ports.value : [],
          ...(args.ok && args.value.length ? { args: args.value } : {}),
          ...(cpu ? { cpu } : {}),
          ...(memory ? { memory } : {}),
        },
      ],
    };
    if (Object.keys(errors).length > 0 || !ports.ok || !args.ok) return { ok: false, errors, partial: input };
    return { ok: true, input };
  },

  blockFor(field) {
    if (field === 'name' || field === 'region' || field === 'description') return field;
    if (field === 'containers') return B.container;
    const m = /^containers\[0\]\.?([a-z]*)/i.exec(field);
    return m ? CONTAINER_FIELDS[m[1] ?? ''] : undefined;
  },
};
