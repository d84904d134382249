/**
 * The create-region modal: name, display name, description and up to three
 * region types (name, comma-separated locations, scheduling). Rows left empty
 * are ignored; the first row is required. Nothing is read from the API.
 */

import type { InputBlock } from '@slack/types';
import { MAX_REGION_NAME_LENGTH, nameRule } from '../../api-shapes/names.js';
import { SCHEDULING_CHOICES } from '../../changes/form-pickers.js';
import type { CreateRegionInput } from '../../changes/requests/regions.js';
import { SCHEDULING_STRATEGIES_EXPLAINED } from '../../changes/scheduling-words.js';
import { escapeMrkdwn, truncate } from '../limits.js';
import { choiceBlocks, contextBlock, sectionBlock, textInput } from './blocks.js';
import { needEnvironment } from './environment.js';
import { addError } from './field-errors.js';
import { splitList } from './parse-text.js';
import { readBlock, readRaw, textInitial } from './state.js';
import type { ModalDefinition, ViewStateValues } from './types.js';

/** Fixed block ids of the create-region modal (type rows: see typeBlock). */
export const REGION_BLOCKS = {
  name: 'name',
  displayName: 'displayName',
  description: 'description',
} as const;

/** How many region-type rows the form offers. */
export const REGION_TYPE_ROWS = 3;

const B = REGION_BLOCKS;

/** The block id of a field in region-type row `row` (0-based). */
export function typeBlock(row: number, field: 'name' | 'locations' | 'scheduling'): string {
  return `type.${row}.${field}`;
}

interface TypeRow {
  row: number;
  name?: string;
  locations: string[];
  scheduling: string;
}

function readRows(values: ViewStateValues): TypeRow[] {
  return Array.from({ length: REGION_TYPE_ROWS }, (_, row) => ({
    row,
    name: readBlock(values, typeBlock(row, 'name')),
    locations: splitList(readRaw(values, typeBlock(row, 'locations')) ?? ''),
    scheduling: readBlock(values, typeBlock(row, 'scheduling')) ?? 'Packed',
  }));
}

/** Rows with anything typed in them: the ones that become `types[k]`, in order. */
function filledRows(values: ViewStateValues): TypeRow[] {
  return readRows(values).filter((r) => r.name !== undefined || r.locations.length > 0);
}

function typeRowBlocks(row: number, values: ViewStateValues): InputBlock[] {
  const required = row === 0;
  return [
    textInput({
      blockId: typeBlock(row, 'name'),
      label: 'Type name',
      optional: !required,
      initial: textInitial(values, typeBlock(row, 'name')),
      placeholder: row === 0 ? 'baremetal' : 'cloud',
    }),
    textInput({
      blockId: typeBlock(row, 'locations'),
      label: 'Locations',
      optional: !required,
      initial: textInitial(values, typeBlock(row, 'locations')),
      placeholder: 'fra-1, fra-2',
      hint: 'Comma-separated.',
    }),
    ...choiceBlocks({
      blockId: typeBlock(row, 'scheduling'),
      label: 'Scheduling',
      choices: SCHEDULING_CHOICES.map((s) => ({ label: s, value: s })),
      noun: 'strategies',
      typeHint: 'Packed or Distributed',
      initial: readBlock(values, typeBlock(row, 'scheduling')) ?? 'Packed',
      optional: !required,
      hint: SCHEDULING_STRATEGIES_EXPLAINED,
    }),
  ];
}

export const regionCreateModal: ModalDefinition<CreateRegionInput> = {
  submit: 'Preview',
  fallbackBlock: B.name,

  async build(meta, _deps, values) {
    const env = needEnvironment(meta);
    const rows = Array.from({ length: REGION_TYPE_ROWS }, (_, row) => [
      sectionBlock(row === 0 ? '*Region type 1*' : `*Region type ${row + 1}* (optional)`),
      ...typeRowBlocks(row, values),
    ]).flat();
    return [
      contextBlock(
        `New region in environment *${escapeMrkdwn(truncate(env, 200))}*. Types are tried in order: type 1 first.`,
      ),
      textInput({
        blockId: B.name,
        label: 'Region name',
        initial: textInitial(values, B.name),
        placeholder: 'eu-west',
        hint: nameRule(MAX_REGION_NAME_LENGTH),
      }),
      textInput({
        blockId: B.displayName,
        label: 'Display name',
        optional: true,
        initial: textInitial(values, B.displayName),
        placeholder: 'EU West',
      }),
      textInput({
        blockId: B.description,
        label: 'Description',
        optional: true,
        initial: textInitial(values, B.description),
      }),
      ...rows,
    ];
  },

  read(meta, values) {
    const errors: Record<string, string> = {};
    if (!meta.environment) addError(errors, B.name, 'This form lost its environment; open it again.');
    const name = readBlock(values, B.name);
    if (!name) addError(errors, B.name, 'Give the region a name, e.g. eu-west.');
    const rows = filledRows(values);
    if (rows.length === 0) addError(errors, typeBlock(0, 'name'), 'Give at least one region type.');
    for (const r of rows) {
      if (!r.name) addError(errors, typeBlock(r.row, 'name'), 'Give this type a name, e.g. baremetal.');
      if (r.locations.length === 0) {
        addError(errors, typeBlock(r.row, 'locations'), 'Give at least one location, e.g. fra-1.');
      }
    }
    const displayName = readBlock(values, B.displayName);
    const description = readBlock(values, B.description);
    // Anything missing is empty here and has its error above; the operation's schema also names it.
    const input: CreateRegionInput = {
      environment: meta.environment ?? '',
      name: name ?? '',
      ...(displayName ? { displayName } : {}),
      ...(description ? { description } : {}),
      types: rows.map((r) => ({ name: r.name ?? '', locations: r.locations, scheduling: r.scheduling })),
    };
    // What could be read goes along, so the operation's own checks report their problems in the same answer.
    if (Object.keys(errors).length > 0) return { ok: false, errors, partial: input };
    return { ok: true, input };
  },

  blockFor(field, values) {
    if (field === 'name' || field === 'displayName' || field === 'description') return field;
    if (field === 'types') return typeBlock(0, 'name');
    const m = /^types\[(\d+)\]\.?([a-z]*)/i.exec(field);
    if (!m) return undefined;
    const k = Number(m[1]);
    // Without the values, assume no empty row came before this one.
    const row = values ? (filledRows(values)[k]?.row ?? k) : k;
    if (row >= REGION_TYPE_ROWS) return undefined;
    const part = m[2] === 'locations' || m[2] === 'scheduling' ? m[2] : 'name';
    return typeBlock(row, part);
  },
};
