/**
 * The two fields every change form ends with (issue 41): When (the form's
 * `--at <time>`: empty applies at Confirm) and Break glass (the form's
 * `--break-glass <reason>`: only during a freeze). Their text goes to the
 * engine as typed; the domain reads the time (changes/schedule/when.ts) and
 * judges the freeze, and a refusal of the time comes back under When.
 */
import type { KnownBlock } from '@slack/types';
import { textInput } from './blocks.js';
import { readBlock, textInitial } from './state.js';
import type { ViewStateValues } from './types.js';

/** The block ids of the two fields. */
export const WHEN_BLOCK = 'control.when';
export const BREAK_GLASS_BLOCK = 'control.break_glass';

/** When and Break glass, keeping what the person typed across reloads. */
export function controlBlocks(values: ViewStateValues): KnownBlock[] {
  const when = textInitial(values, WHEN_BLOCK);
  const reason = textInitial(values, BREAK_GLASS_BLOCK);
  return [
    textInput({
      blockId: WHEN_BLOCK,
      label: 'When',
      optional: true,
      placeholder: 'in 2h',
      hint: 'Empty: it applies when confirmed. Or a time it applies at, after Confirm and approvals now: 2026-12-01T18:00+01:00, 18:00 Europe/Berlin (the next one) or in 2h.',
      ...(when ? { initial: when } : {}),
    }),
    textInput({
      blockId: BREAK_GLASS_BLOCK,
      label: 'Break glass (only during a freeze)',
      optional: true,
      placeholder: 'servers crashing in the final',
      hint: 'Why this cannot wait for the freeze to end. It then needs the policy’s break-glass approvers, never you. Leave empty otherwise.',
      ...(reason ? { initial: reason } : {}),
    }),
  ];
}

/** What the two fields say: the time as typed and the break-glass reason, each only when given. */
export function readControl(values: ViewStateValues): { at?: string; breakGlass?: string } {
  const at = readBlock(values, WHEN_BLOCK);
  const breakGlass = readBlock(values, BREAK_GLASS_BLOCK);
  return { ...(at ? { at } : {}), ...(breakGlass ? { breakGlass } : {}) };
}
