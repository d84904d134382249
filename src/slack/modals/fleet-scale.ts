/**
 * The scale modals of Armadas and ArmadaSets: which one (choosing reloads its
 * region types), for an ArmadaSet which region, which region type, and the
 * new min, buffer and max, prefilled with the values it has now. The replica
 * rules are the operation's, which names the rule broken under the field.
 */
import type { KnownBlock } from '@slack/types';
import type { FleetPick, RegionTypePick } from '../../changes/form-pickers.js';
import { refuseOwned } from '../../changes/operations/scale-fleet.js';
import type { ScaleArmadaInput, ScaleArmadaSetInput } from '../../changes/requests/fleets.js';
import { escapeMrkdwn, truncate } from '../limits.js';
import { choiceBlocks, contextBlock, textInput } from './blocks.js';
import { needEnvironment } from './environment.js';
import { addError, errorBlock } from './field-errors.js';
import { fleetChoices, fleetPicked } from './fleet-choices.js';
import { readBlock, readChoice } from './state.js';
import type { ModalDefinition, ViewStateValues } from './types.js';
import { whereBlockFor } from './where.js';

/** Block ids of the scale modals. */
export const FLEET_SCALE_BLOCKS = {
  fleet: 'fleet',
  region: 'region',
  type: 'type',
  min: 'minReplicas',
  buffer: 'bufferSize',
  max: 'maxReplicas',
} as const;

const B = FLEET_SCALE_BLOCKS;
const COUNTS = [
  { block: B.min, label: 'Min game servers' },
  { block: B.buffer, label: 'Buffer (kept Ready for new matches)' },
  { block: B.max, label: 'Max game servers (0 drains the region type)' },
] as const;

/** The region types shown: the Armada's own, or those of the chosen region of an ArmadaSet. */
function entriesOf(fleet: FleetPick | undefined, region: string | undefined): RegionTypePick[] {
  if (!fleet) return [];
  if (fleet.kind === 'ArmadaSet') return fleet.regions.find((r) => r.region === region)?.types ?? [];
  return fleet.regions[0]?.types ?? [];
}

/** The scale modal of `kind`: an armada's, or an ArmadaSet's (which also asks the region). */
export function fleetScaleModal(kind: 'Armada'): ModalDefinition<ScaleArmadaInput>;
export function fleetScaleModal(kind: 'ArmadaSet'): ModalDefinition<ScaleArmadaSetInput>;
export function fleetScaleModal(
  kind: 'Armada' | 'ArmadaSet',
): ModalDefinition<ScaleArmadaInput | ScaleArmadaSetInput> {
  const isSet = kind === 'ArmadaSet';
  const noun = isSet ? 'ArmadaSet' : 'armada';
  return {
    submit: 'Preview',
    fallbackBlock: B.max,

    // Named by the command and owned by an ArmadaSet: refused before the form, as the typed command is.
    async refuseBeforeOpening(meta, deps) {
      if (isSet || !meta.environment || !meta.fleet) return;
      const armada = (await deps.queries.armadasIn(meta.environment))?.find((a) => a.name === meta.fleet);
      if (armada) refuseOwned(armada.name, armada.owner, armada.regions[0]?.region ?? '', meta.environment);
    },

    async build(meta, deps, values) {
      const env = needEnvironment(meta);
      const { fleets, fleet } = await fleetPicked(deps.queries, kind, env, meta, values);
      const regions = isSet ? (fleet?.regions.map((r) => r.region) ?? []) : [];
      const region = isSet ? (readChoice(values, B.region) ?? meta.region ?? regions[0]) : undefined;
      const entries = entriesOf(fleet, region);
      const typeName =
        readChoice(values, B.type) ??
        meta.regionType ??
        (entries.length === 1 ? entries[0]?.name : undefined);
      const entry = entries.find((e) => e.name === typeName);
      const blocks: KnownBlock[] = [
        contextBlock(
          `Scales one region type of ${isSet ? 'one region of an ArmadaSet' : 'an armada'} in *${escapeMrkdwn(truncate(env, 200))}*: max at least min and buffer, buffer at least 1 (up to min when min is above 0); max 0 drains it. You see a preview before anything changes.`,
        ),
        ...choiceBlocks({
          blockId: B.fleet,
          label: isSet ? 'ArmadaSet' : 'Armada',
          choices: fleetChoices(fleets),
          noun: `${noun}s in ${env}`,
          typeHint: `the ${noun} name and press Enter`,
          initial: fleet?.name,
          reload: true,
          suggest: { source: isSet ? 'armadasets' : 'armadas', scope: env },
        }),
      ];
      if (isSet) {
        blocks.push(
          ...choiceBlocks({
            blockId: B.region,
            label: 'Region',
            choices: regions.map((r) => ({ label: r, value: r })),
            noun: fleet ? `regions of ${fleet.name}` : 'regions',
            typeHint: 'a region name and press Enter',
            initial: region,
            resetKey: fleet?.name ?? '',
            reload: true,
          }),
        );
      }
      blocks.push(
        ...choiceBlocks({
          blockId: B.type,
          label: 'Region type',
          choices: entries.map((e) => ({
            label: `${e.name} (now min ${e.minReplicas ?? 0}, buffer ${e.bufferSize ?? 0}, max ${e.maxReplicas ?? 0})`,
            value: e.name,
          })),
          noun: 'region types',
          typeHint: 'a region type (e.g. baremetal)',
          initial: entry?.name,
          resetKey: `${fleet?.name ?? ''}/${region ?? ''}`,
          reload: true,
        }),
        ...COUNTS.map((c) =>
          textInput({
            blockId: c.block,
            label: c.label,
            optional: true,
            // What the person typed stays; otherwise the value the region type has now.
            initial: readBlock(values, c.block) ?? (entry ? String(entry[c.block] ?? 0) : undefined),
          }),
        ),
      );
      return blocks;
    },

    read(meta, values) {
      const errors: Record<string, string> = {};
      const name = readChoice(values, B.fleet);
      if (!name) addError(errors, errorBlock(B.fleet, values), `Choose the ${noun}.`);
      const region = isSet ? readChoice(values, B.region) : undefined;
      if (isSet && !region) addError(errors, errorBlock(B.region, values), 'Choose the region.');
      const type = readChoice(values, B.type);
      const counts: Partial<Record<(typeof COUNTS)[number]['block'], string>> = {};
      for (const c of COUNTS) {
        const v = readBlock(values, c.block);
        if (v !== undefined) counts[c.block] = v;
      }
      // An environment the form lost reads as empty: the operation's schema names it missing.
      const input = {
        environment: meta.environment ?? '',
        name: name ?? '',
        ...(type ? { type } : {}),
        ...counts,
      };
      if (!name || (isSet && !region))
        return { ok: false, errors, partial: { ...input, ...(region ? { region } : {}) } };
      if (!isSet) return { ok: true, input };
      return { ok: true, input: { ...input, region: region ?? '' } };
    },

    blockFor(field, values?: ViewStateValues) {
      if (field === 'name') return B.fleet;
      if (field === 'region' && isSet) return B.region;
      if (field === 'type') return B.type;
      if (field === 'minReplicas' || field === 'maxReplicas' || field === 'bufferSize') return field;
      if (field === 'replicas') return B.max;
      return whereBlockFor(field, values);
    },
  };
}
