/**
 * The region scheduling modal: which region of the environment, which of its
 * types, and the strategy. Choosing a region reloads the form with that
 * region's types; the strategy select says what each one does, in the one
 * sentence the preview and the help use too.
 */
import { type RegionPick, SCHEDULING_CHOICES } from '../../changes/form-pickers.js';
import type { SetRegionSchedulingInput } from '../../changes/requests/regions.js';
import { SCHEDULING_STRATEGIES_EXPLAINED } from '../../changes/scheduling-words.js';
import { escapeMrkdwn, truncate } from '../limits.js';
import { choiceBlocks, contextBlock } from './blocks.js';
import { regionChoices } from './choices.js';
import { needEnvironment } from './environment.js';
import { addError, errorBlock, missingChoice } from './field-errors.js';
import { readBlock, readChoice, TYPED_SUFFIX } from './state.js';
import type { ModalDefinition, ViewStateValues } from './types.js';
import { whereBlockFor } from './where.js';

/** Block ids of the region scheduling modal. */
export const REGION_SCHEDULING_BLOCKS = {
  region: 'region',
  type: 'type',
  scheduling: 'scheduling',
} as const;

const B = REGION_SCHEDULING_BLOCKS;
const REGION_HINT = 'a region name and press Enter (e.g. eu-central)';
const TYPE_HINT = 'a region type (e.g. baremetal)';

const typed = (values: ViewStateValues, id: string) => readBlock(values, `${id}${TYPED_SUFFIX}`);

export const regionSchedulingModal: ModalDefinition<SetRegionSchedulingInput> = {
  submit: 'Preview',
  fallbackBlock: B.scheduling,

  async build(meta, deps, values) {
    const env = needEnvironment(meta);
    const regions = await deps.queries.regions(env);
    const regionName = readChoice(values, B.region) ?? meta.region;
    const region: RegionPick | undefined = regions.find((r) => r.name === regionName);
    const types = region?.types ?? [];
    const typeName = readChoice(values, B.type) ?? meta.regionType;
    const current = types.find((t) => t.name === typeName);
    return [
      contextBlock(
        `Sets how the game servers of a region type in *${escapeMrkdwn(truncate(env, 200))}* are placed on nodes. You see a preview before anything changes.`,
      ),
      ...choiceBlocks({
        blockId: B.region,
        label: 'Region',
        choices: regionChoices(regions),
        noun: `regions in ${env}`,
        typeHint: REGION_HINT,
        initial: region?.name,
        typedInitial: typed(values, B.region),
        // Its types are listed below: choosing another region reloads them.
        reload: true,
      }),
      ...choiceBlocks({
        blockId: B.type,
        label: 'Region type',
        choices: types.map((t) => ({ label: `${t.name} (now ${t.scheduling})`, value: t.name })),
        noun: region ? `types in ${region.name}` : 'region types',
        typeHint: TYPE_HINT,
        initial: current?.name,
        typedInitial: typed(values, B.type),
        // Another region's type must not stay selected when the region changes.
        resetKey: region?.name ?? '',
      }),
      ...choiceBlocks({
        blockId: B.scheduling,
        label: 'Scheduling',
        choices: SCHEDULING_CHOICES.map((s) => ({ label: s, value: s })),
        noun: 'strategies',
        typeHint: 'Packed or Distributed',
        initial: readBlock(values, B.scheduling),
        hint: SCHEDULING_STRATEGIES_EXPLAINED,
      }),
    ];
  },

  read(meta, values) {
    const errors: Record<string, string> = {};
    if (!meta.environment) addError(errors, B.scheduling, 'This form lost its environment; open it again.');
    const region = readChoice(values, B.region);
    if (!region)
      addError(
        errors,
        errorBlock(B.region, values),
        missingChoice(values, B.region, 'a region', REGION_HINT),
      );
    const type = readChoice(values, B.type);
    if (!type)
      addError(errors, errorBlock(B.type, values), missingChoice(values, B.type, 'a region type', TYPE_HINT));
    const scheduling = readBlock(values, B.scheduling);
    if (!scheduling) addError(errors, B.scheduling, 'Choose Packed or Distributed.');
    const input = { environment: meta.environment, region, type, scheduling };
    if (!meta.environment || !region || !type || !scheduling) return { ok: false, errors, partial: input };
    return {
      ok: true,
      input: { environment: meta.environment, region, type, scheduling },
    };
  },

  blockFor(field, values) {
    if (field === 'region' || field === 'type' || field === 'scheduling') return B[field];
    return whereBlockFor(field, values);
  },
};
