/**
 * Blocks for the parts of a Preview or Result: labelled lines, notes and
 * lists. Shared by the change message and the approvals list; each helper
 * uses a fixed, small number of blocks whatever the input size.
 */
import type { KnownBlock } from '@slack/types';
import type { Line, Preview } from '../../changes/operation.js';
import { escapeMrkdwn, LIMITS } from '../limits.js';
import { context, escapeFit, fieldsSection, joinMapped, packItems, section } from './blocks.js';

// Fields read well side by side only while values are short.
const FIELD_VALUE_MAX = 200;
const MAX_LISTS = 3;
const LIST_ITEM_MAX = 300;

/**
 * Labelled lines as fields (few and short) or as a compact "*label:* value"
 * list (at most 2 blocks); secondary lines (internal names, ids) follow in one
 * small context line.
 */
export function lineBlocks(all: readonly Line[]): KnownBlock[] {
  const lines = all.filter((l) => !l.secondary);
  const detail = all.filter((l) => l.secondary);
  const after: KnownBlock[] = detail.length
    ? [
        context(
          joinMapped(
            detail,
            (l) => `${escapeFit(l.label, 200)}: \`${escapeFit(l.value, 300)}\``,
            2000,
            ' · ',
          ),
        ),
      ]
    : [];
  return [...primaryBlocks(lines), ...after];
}

/** A user id as Slack writes it; anything else in a person line is shown as text. */
const USER_ID = /^[UW][A-Z0-9]{2,}$/;

/** A line's value as mrkdwn: a person as a mention, anything else as `asText` writes it. */
function shownValue(l: Line, asText: (text: string) => string): string {
  if (l.person && USER_ID.test(l.value)) return `<@${l.value}>`;
  return asText(l.value);
}

function primaryBlocks(lines: readonly Line[]): KnownBlock[] {
  if (lines.length === 0) return [];
  const asFields =
    lines.length <= LIMITS.sectionFields &&
    lines.every((l) => l.value.length <= FIELD_VALUE_MAX && l.label.length <= FIELD_VALUE_MAX);
  if (asFields) {
    return [
      fieldsSection(
        lines.map((l) => ({ label: escapeMrkdwn(l.label), value: shownValue(l, escapeMrkdwn) || '–' })),
      ),
    ];
  }
  return packItems(lines, (l) => `*${escapeFit(l.label, 200)}:* ${shownValue(l, (v) => escapeFit(v, 500))}`, {
    maxBlocks: 2,
    maxLineLength: 500,
  });
}

/** Notes as one bulleted section (none when there are no notes). */
function noteBlocks(notes: readonly string[]): KnownBlock[] {
  if (notes.length === 0) return [];
  return [section(joinMapped(notes, (n) => `• ${escapeFit(n, 500)}`, LIMITS.sectionText))];
}

/** Up to three titled lists, each one section with "… and N more" when cut. */
function listBlocks(lists: readonly { title: string; items: string[] }[]): KnownBlock[] {
  const shown = lists.slice(0, MAX_LISTS).map((list) => {
    const title = `*${escapeFit(list.title, 200)}* (${list.items.length})`;
    const body = list.items.length
      ? joinMapped(
          list.items,
          (i) => `• ${escapeFit(i, LIST_ITEM_MAX)}`,
          LIMITS.sectionText - title.length - 1,
        )
      : '_none_';
    return section(`${title}\n${body}`);
  });
  if (lists.length > MAX_LISTS) shown.push(section(`… and ${lists.length - MAX_LISTS} more lists`));
  return shown;
}

/** A destructive preview's warnings, first and marked, so they are read before anything else (at most 1 block). */
function warningBlocks(preview: Preview): KnownBlock[] {
  const warnings = preview.warnings ?? [];
  if (warnings.length === 0) return [];
  return [section(joinMapped(warnings, (w) => `:warning: *${escapeFit(w, 500)}*`, LIMITS.sectionText))];
}

/** The whole preview body under the summary: warnings, lines, notes, lists (at most 9 blocks). */
export function previewBlocks(preview: Preview): KnownBlock[] {
  return [
    ...warningBlocks(preview),
    ...lineBlocks(preview.lines),
    ...noteBlocks(preview.notes),
    ...listBlocks(preview.lists ?? []),
  ];
}
