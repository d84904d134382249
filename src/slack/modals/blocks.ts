/**
 * Block builders for the modals. Selects are static while their list fits
 * Slack's 100 options. A longer list of images or vessels becomes a
 * type-ahead (`external_select`, served by the options listener); any other
 * list is shown cut with a hint and a free-text field beside it: the user can
 * always type what is not listed.
 */
import { createHash } from 'node:crypto';
import type { ContextBlock, InputBlock, KnownBlock, PlainTextOption, SectionBlock } from '@slack/types';
import type { SuggestionSource } from '../../changes/form-queries.js';
import { singularOf, withArticle } from '../../format/english.js';
import { MODAL_RELOAD_ACTION, suggestActionId } from '../ids.js';
import { LIMITS, truncate } from '../limits.js';
import { TYPED_SUFFIX } from './state.js';

/** The action id of plain inputs; blocks are read by block id, so one id serves all. */
const VALUE_ACTION = 'value';

/** Longest label we render; Slack allows 2000 but a label is one line in the modal. */
const LABEL_MAX = 150;
/** Slack's cap on a hint (plain text). */
const HINT_MAX = 2000;
/** Slack's cap on a plain_text_input value. */
const TEXT_MAX = 3000;

function plain(text: string, max: number) {
  return { type: 'plain_text' as const, text: truncate(text, max) };
}

interface TextInputOptions {
  blockId: string;
  label: string;
  initial?: string;
  optional?: boolean;
  placeholder?: string;
  hint?: string;
  multiline?: boolean;
  /** Pressing Enter reloads the modal (a typed branch). */
  reload?: boolean;
}

/** An input block with a plain_text_input. */
export function textInput(o: TextInputOptions): InputBlock {
  return {
    type: 'input',
    block_id: o.blockId,
    label: plain(o.label, LABEL_MAX),
    optional: o.optional ?? false,
    ...(o.hint ? { hint: plain(o.hint, HINT_MAX) } : {}),
    ...(o.reload ? { dispatch_action: true } : {}),
    element: {
      type: 'plain_text_input',
      action_id: o.reload ? MODAL_RELOAD_ACTION : VALUE_ACTION,
      ...(o.initial ? { initial_value: o.initial.slice(0, TEXT_MAX) } : {}),
      ...(o.placeholder ? { placeholder: plain(o.placeholder, LIMITS.placeholder) } : {}),
      ...(o.multiline ? { multiline: true } : {}),
      ...(o.reload ? { dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] } } : {}),
    },
  };
}

/** One entry of a select. */
export interface Choice {
  label: string;
  value: string;
}

interface ChoiceOptions {
  blockId: string;
  label: string;
  choices: readonly Choice[];
  /** What the list holds, plural ("images"), for the hint. */
  noun: string;
  /** What to type when the list is cut or empty, e.g. "image:tag (e.g. game-server:1.2.0)". */
  typeHint: string;
  /** The value to preselect, when it is listed. */
  initial?: string;
  /** Text to prefill in the free-text field when the list is cut. */
  typedInitial?: string;
  optional?: boolean;
  hint?: string;
  /** Choosing reloads the modal (a branch whose images are listed below it). */
  reload?: boolean;
  /**
   * Part of the action id: when it changes (a different branch), Slack treats the
   * select as new and drops a selection that belonged to the old list.
   */
  resetKey?: string;
  /** Where a type-ahead finds the whole list when this one is too long to show. */
  suggest?: { source: SuggestionSource; scope: string };
}

/**
 * Characters typed before Slack asks for options: one narrows a long list
 * enough, and asking on every character of a name costs the API little.
 */
export const SUGGEST_MIN_QUERY = 1;

/** A select plus, when its list had to be cut, a free-text block `${blockId}.typed`. */
export function choiceBlocks(o: ChoiceOptions): InputBlock[] {
  const seen = new Set<string>();
  const fitting = o.choices.filter((c) => {
    const fits = c.value.length > 0 && c.value.length <= LIMITS.optionValue && !seen.has(c.value);
    seen.add(c.value);
    return fits;
  });
  const shown = fitting.slice(0, LIMITS.selectOptions);
  const cut = shown.length < o.choices.length;
  if (cut && o.suggest) return [typeAhead(o, o.suggest)];
  if (shown.length === 0) {
    return [
      textInput({
        blockId: o.blockId,
        label: o.label,
        optional: o.optional,
        initial: o.typedInitial ?? o.initial,
        hint: `No ${o.noun} to choose from; type ${o.typeHint}.`,
        reload: o.reload,
      }),
    ];
  }
  const options: PlainTextOption[] = shown.map((c) => ({
    text: plain(c.label || c.value, LIMITS.optionText),
    value: c.value,
  }));
  const initial = options.find((opt) => opt.value === o.initial);
  const actionId = o.reload
    ? MODAL_RELOAD_ACTION
    : o.resetKey === undefined
      ? VALUE_ACTION
      : `${VALUE_ACTION}.${createHash('sha256').update(o.resetKey).digest('hex').slice(0, 12)}`;
  const hint = cut
    ? `Showing ${shown.length} of ${o.choices.length} ${o.noun}. Not listed? Type ${o.typeHint} in the next field.`
    : o.hint;
  const select: InputBlock = {
    type: 'input',
    block_id: o.blockId,
    label: plain(o.label, LABEL_MAX),
    // A cut list may not hold the user's choice; the typed field then carries it.
    optional: (o.optional ?? false) || cut,
    ...(hint ? { hint: plain(hint, HINT_MAX) } : {}),
    ...(o.reload ? { dispatch_action: true } : {}),
    element: {
      type: 'static_select',
      action_id: actionId,
      placeholder: plain(choosePlaceholder(o.noun), LIMITS.placeholder),
      options,
      ...(initial ? { initial_option: initial } : {}),
    },
  };
  if (!cut) return [select];
  return [
    select,
    textInput({
      blockId: `${o.blockId}${TYPED_SUFFIX}`,
      label: `…or type ${o.label.toLowerCase()}`,
      optional: true,
      initial: o.typedInitial,
      placeholder: o.typeHint,
      reload: o.reload,
    }),
  ];
}

/**
 * A type-ahead select over a list too long to show: the current value
 * preselected (labelled as its listed entry when it has one).
 */
function typeAhead(o: ChoiceOptions, suggest: { source: SuggestionSource; scope: string }): InputBlock {
  const listed = o.choices.find((c) => c.value === o.initial);
  const initial =
    o.initial && o.initial.length <= LIMITS.optionValue
      ? { text: plain(listed?.label || o.initial, LIMITS.optionText), value: o.initial }
      : undefined;
  return {
    type: 'input',
    block_id: o.blockId,
    label: plain(o.label, LABEL_MAX),
    optional: o.optional ?? false,
    hint: plain(`Type to search ${o.choices.length} ${o.noun}, newest first.`, HINT_MAX),
    // A pick the rest of the form depends on reloads it, as the static select would.
    ...(o.reload ? { dispatch_action: true } : {}),
    element: {
      type: 'external_select',
      action_id: suggestActionId(suggest.source, suggest.scope, o.reload ?? false),
      placeholder: plain(`Type to find ${oneOf(o.noun)}`, LIMITS.placeholder),
      min_query_length: SUGGEST_MIN_QUERY,
      ...(initial ? { initial_option: initial } : {}),
    },
  };
}

/** A context line of mrkdwn (caller escapes user text). */
export function contextBlock(text: string): ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncate(text, LIMITS.contextText) }] };
}

/** A section of mrkdwn (caller escapes user text). */
export function sectionBlock(text: string): SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) } };
}

/** Blocks in order, for modals that assemble optional parts. */
export function blocks(...parts: (KnownBlock | KnownBlock[] | undefined)[]): KnownBlock[] {
  return parts.flatMap((p) => (p === undefined ? [] : Array.isArray(p) ? p : [p]));
}

/** "Choose a branch" from a noun like "branches" or "regions in dev": one of them, with its article. */
function choosePlaceholder(pluralNoun: string): string {
  return `Choose ${oneOf(pluralNoun)}`;
}

/**
 * One of a plural noun phrase, with its article: "region types" -> "a region
 * type", "regions in dev" -> "a region in dev", "ArmadaSets of arena" -> "an
 * ArmadaSet of arena". The plural is the last word before the place ("in",
 * "of"), which stays as it is.
 */
export function oneOf(pluralNoun: string): string {
  const [, head = pluralNoun, place = ''] = /^(.*?)((?: (?:in|of) .*)?)$/.exec(pluralNoun) ?? [];
  const words = head.split(' ');
  const last = words.pop() ?? head;
  return `${withArticle([...words, singularOf(last)].join(' '))}${place}`;
}
