/**
 * Per-row buttons on list and show answers (issue 18.9): Show, Logs, Delete,
 * Promote. Each carries the command text it stands for, which the row
 * listener (slack/listeners/row-actions.ts) runs as if typed. A short list
 * gets a section and a row of buttons per item; a long one stays packed text
 * (fifty blocks would hold only a couple of dozen rows) with a hint naming
 * the show command instead.
 */
import type { Button, KnownBlock } from '@slack/types';
import { ROW_ACTIONS, type RowAction } from '../ids.js';
import { LIMITS, truncate } from '../limits.js';
import { section } from './blocks.js';
import { actions } from './buttons.js';

/** Rows up to this many get their own buttons; more are listed as text. */
export const ROWS_WITH_ACTIONS = 12;

const LABELS: Record<RowAction, string> = {
  show: 'Show',
  logs: 'Logs',
  delete: 'Delete',
  remove: 'Remove',
  promote: 'Promote',
  rollback: 'Roll back',
};

/** One row action: the button's kind, the command it runs, and what it acts on, spoken. */
export interface RowActionSpec {
  action: RowAction;
  /** The command text without the command name, e.g. `vessel show dev lobby-1`. */
  command: string;
  /** What a screen reader says, e.g. "Show vessel lobby-1 in dev". */
  spoken: string;
}

/** The button for `spec`; undefined when its command would not fit in a button's value. */
export function rowButton(spec: RowActionSpec): Button | undefined {
  if (spec.command.length > LIMITS.buttonValue) return undefined;
  return {
    type: 'button',
    action_id: ROW_ACTIONS[spec.action],
    text: { type: 'plain_text', text: LABELS[spec.action] },
    accessibility_label: truncate(spec.spoken, LIMITS.accessibilityLabel),
    value: spec.command,
    ...(spec.action === 'delete' || spec.action === 'remove' ? { style: 'danger' as const } : {}),
  };
}

/** An actions block of `specs`' buttons, or nothing when none fits. */
export function rowActions(specs: readonly RowActionSpec[]): KnownBlock[] {
  const buttons = specs.flatMap((s) => rowButton(s) ?? []);
  return buttons.length ? [actions(buttons)] : [];
}

/**
 * A section and its buttons per item when the list is short enough
 * (ROWS_WITH_ACTIONS); undefined for a longer list, which the caller packs.
 */
export function rowsWithActions<T>(
  items: readonly T[],
  line: (item: T) => string,
  specs: (item: T) => readonly RowActionSpec[],
): KnownBlock[] | undefined {
  if (items.length > ROWS_WITH_ACTIONS) return undefined;
  return items.flatMap((item) => [section(line(item)), ...rowActions(specs(item))]);
}
