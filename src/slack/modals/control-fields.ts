/**
 * The fields every change form ends with (issue 41): When (the form's
 * `--at <time>`: empty applies at Confirm) and Break glass (the form's
 * `--break-glass <reason>`: only during a freeze); between them, on the forms
 * that roll out a build only (promote, armada image, armadaset image: the
 * operations whose descriptor says `guardable`), Guard (the form's `--guard
 * <duration>` and `--no-guard`, issue 42). When's and Break glass's text goes
 * to the engine as typed; the domain reads the time (changes/schedule/when.ts)
 * and judges the freeze, and a refusal of the time comes back under When.
 * Guard is read here into the `GuardAsk` the flags make (a malformed window is
 * refused beside it at once, with the flag's 24h limit), and the domain
 * judges it against the policy (changes/guard-choice.ts, `chooseGuard`); its
 * refusal comes back beside Guard, in the field's words.
 */
import type { KnownBlock } from '@slack/types';
import type { GuardAsk } from '../../changes/guard-choice.js';
import { parseDuration } from '../../policy/duration.js';
import { MAX_GUARD_MS, MAX_GUARD_WORDS } from '../../policy/guard-window.js';
import { textInput } from './blocks.js';
import { readBlock, textInitial } from './state.js';
import type { ControlAsk, ViewStateValues } from './types.js';

/** The block ids of the control fields. */
export const WHEN_BLOCK = 'control.when';
export const GUARD_BLOCK = 'control.guard';
export const BREAK_GLASS_BLOCK = 'control.break_glass';

/** What Guard takes to decline a guard the policy makes optional (`--no-guard`). */
const NO_GUARD = 'none';

/**
 * When, Guard (where `guardable`: the form rolls out a build) and Break glass,
 * keeping what the person typed across reloads.
 */
export function controlBlocks(values: ViewStateValues, guardable: boolean): KnownBlock[] {
  const when = textInitial(values, WHEN_BLOCK);
  const guard = textInitial(values, GUARD_BLOCK);
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
    // A text input, not a select: a window is any duration up to 24h (as `--guard` takes), which a
    // list of choices cannot hold without a second field for "another window"; empty, the usual
    // answer, needs no choice at all, and `none` is one word to type.
    ...(guardable
      ? [
          textInput({
            blockId: GUARD_BLOCK,
            label: 'Guard',
            optional: true,
            placeholder: '30m',
            hint: 'Empty: the policy’s guard, if its rule sets one. A window such as 15m or 1h (at most 24h) asks for a guard watching that long after the rollout, rolling it back on trouble (never shorter than the rule’s). none declines a guard the rule makes optional.',
            ...(guard ? { initial: guard } : {}),
          }),
        ]
      : []),
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

/**
 * What the control fields say, or the problems keyed by block (Guard's only:
 * When and Break glass go to the engine as typed). Guard is read only where
 * `guardable`: no other form shows it.
 */
export function readControl(
  values: ViewStateValues,
  guardable: boolean,
): { ok: true; control: ControlAsk } | { ok: false; errors: Record<string, string> } {
  const at = readBlock(values, WHEN_BLOCK);
  const breakGlass = readBlock(values, BREAK_GLASS_BLOCK);
  const guard = guardable ? readGuard(readBlock(values, GUARD_BLOCK)) : {};
  if ('problem' in guard) return { ok: false, errors: { [GUARD_BLOCK]: guard.problem } };
  return {
    ok: true,
    control: {
      ...(at ? { at } : {}),
      ...(breakGlass ? { breakGlass } : {}),
      ...(guard.ask ? { guard: guard.ask } : {}),
    },
  };
}

/**
 * Guard's text (trimmed, undefined when empty) as the ask `--guard`/`--no-guard`
 * would make: nothing (the policy's guard), a window (the parser and 24h limit
 * the flag and the policy use), or none; else the problem in the field's words.
 */
export function readGuard(text: string | undefined): { ask?: GuardAsk } | { problem: string } {
  if (text === undefined) return {};
  if (text.toLowerCase() === NO_GUARD) return { ask: { off: true } };
  const parsed = parseDuration(text);
  if ('problem' in parsed)
    return {
      problem: `Guard: expected a window like 15m or 1h (at most 24h), or ${NO_GUARD}; got ${JSON.stringify(text)}.`,
    };
  if (parsed.ms > MAX_GUARD_MS)
    return { problem: `Guard: expected ${MAX_GUARD_WORDS}, got ${JSON.stringify(text)}.` };
  return { ask: { withinMs: parsed.ms } };
}
