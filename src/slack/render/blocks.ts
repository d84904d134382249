/**
 * Small Block Kit builders shared by the renderers. Each one enforces the
 * size limit of the thing it builds, so a renderer can feed it any input and
 * only has to think about how many blocks it uses.
 */
import type { ContextBlock, DividerBlock, HeaderBlock, KnownBlock, SectionBlock } from '@slack/types';
import { formatUtcMinute } from '../../format/time.js';
import { escapeMrkdwn, joinWithMore, LIMITS, truncate } from '../limits.js';
import type { SlackMessage } from './message.js';

/**
 * Cuts already-escaped mrkdwn to `max` characters without leaving half an
 * entity (`&am…`) or half a `<…>` token, which Slack would show as garbage.
 */
export function fitMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text
    .slice(0, Math.max(0, max - 1))
    .replace(/&[a-z]*$/, '')
    .replace(/<[^>]*$/, '');
  return `${cut}…`;
}

/** Escapes raw text for mrkdwn and cuts it to `max`, escaping only the part that can be shown. */
export function escapeFit(text: string, max: number): string {
  return fitMrkdwn(escapeMrkdwn(text.slice(0, max + 1)), max);
}

/**
 * Free text a person typed (a reject reason), shown literally: Slack has no
 * escape for `_` or `*`, so it goes in inline code, on one line, cut to `max`.
 */
export function typedText(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').replace(/`/g, "'").trim();
  return `\`${escapeFit(oneLine, max)}\``;
}

/** A user mention; ids come from Slack, but anything odd is dropped so it cannot break the markup. */
export function mention(userId: string): string {
  return `<@${userId.replace(/[^A-Za-z0-9._-]/g, '')}>`;
}

/** A user-group mention (`<!subteam^S123>`). */
export function groupMention(groupId: string): string {
  return `<!subteam^${groupId.replace(/[^A-Za-z0-9._-]/g, '')}>`;
}

/** `ms` as Slack's date token, shown in the reader's time zone, with a UTC fallback for old clients. */
export function slackDate(ms: number): string {
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${formatUtcMinute(ms)}>`;
}

/** A header block (plain text, so no escaping). */
export function header(text: string): HeaderBlock {
  return { type: 'header', text: { type: 'plain_text', text: truncate(text, LIMITS.headerText) || ' ' } };
}

/** A section holding escaped mrkdwn `text`, cut to the section limit. */
export function section(text: string, blockId?: string): SectionBlock {
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: fitMrkdwn(text, LIMITS.sectionText) || ' ' },
    ...(blockId ? { block_id: blockId } : {}),
  };
}

/** A context block with one escaped mrkdwn element. */
export function context(text: string): ContextBlock {
  return {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: fitMrkdwn(text, LIMITS.contextText) || ' ' }],
  };
}

/** A divider. */
export function divider(): DividerBlock {
  return { type: 'divider' };
}

/** A section of up to ten `*label*\nvalue` fields (already escaped). */
export function fieldsSection(fields: readonly { label: string; value: string }[]): SectionBlock {
  return {
    type: 'section',
    fields: fields.slice(0, LIMITS.sectionFields).map((f) => ({
      type: 'mrkdwn' as const,
      text: fitMrkdwn(`*${f.label}*\n${f.value}`, LIMITS.fieldText),
    })),
  };
}

interface PackOptions {
  /** Most sections to use; the last one ends in "… and N more" when lines are left over. */
  maxBlocks: number;
  /** Longest single line before it is cut (keeps one huge name from eating a section). */
  maxLineLength?: number;
}

/**
 * `joinWithMore` over `items` shown by `render`, rendering only until the
 * text is full; the rest are only counted. Keeps 100,000-item lists cheap.
 */
export function joinMapped<T>(
  items: readonly T[],
  render: (item: T) => string,
  max: number,
  separator = '\n',
): string {
  const { shown, hidden } = renderFitting(items, render, max, separator.length);
  return joinAll(withHidden(shown, hidden, max), hidden, max, separator);
}

/** Packs escaped mrkdwn lines into as few sections as fit, at most `maxBlocks`. */
export function packLines(lines: readonly string[], options: PackOptions): SectionBlock[] {
  return packItems(lines, (l) => l, options);
}

/** Like packLines, rendering each item with `render` only when it could be shown. */
export function packItems<T>(
  items: readonly T[],
  render: (item: T) => string,
  options: PackOptions,
): SectionBlock[] {
  const lineMax = options.maxLineLength ?? 1000;
  const { shown, hidden } = renderFitting(
    items,
    (item) => fitMrkdwn(render(item), lineMax),
    options.maxBlocks * LIMITS.sectionText,
    1,
  );
  const blocks: SectionBlock[] = [];
  let i = 0;
  while (i < shown.length && blocks.length < options.maxBlocks - 1) {
    let text = '';
    while (i < shown.length) {
      const next = text ? `${text}\n${shown[i]}` : (shown[i] as string);
      if (next.length > LIMITS.sectionText) break;
      text = next;
      i++;
    }
    // Only reachable when maxLineLength exceeds a section: cut that one line.
    if (!text) text = fitMrkdwn(shown[i++] as string, LIMITS.sectionText);
    blocks.push(section(text));
  }
  // Whatever is left goes in one last section that ends in "… and N more".
  if (i < shown.length || hidden > 0) {
    const rest = withHidden(shown.slice(i), hidden, LIMITS.sectionText);
    blocks.push(section(joinAll(rest, hidden, LIMITS.sectionText, '\n')));
  }
  return blocks;
}

// Renders items until they could no longer fit in `max` characters and counts the rest.
function renderFitting<T>(
  items: readonly T[],
  render: (item: T) => string,
  max: number,
  separatorLength: number,
): { shown: string[]; hidden: number } {
  const shown: string[] = [];
  let used = 0;
  for (const item of items) {
    if (used > max) break;
    const rendered = render(item);
    shown.push(rendered);
    used += rendered.length + separatorLength;
  }
  return { shown, hidden: items.length - shown.length };
}

// joinWithMore reserves room for "… and N more" even when every item fits; skip it then.
function joinAll(items: string[], hidden: number, max: number, separator: string): string {
  if (hidden === 0) {
    const all = items.join(separator);
    if (all.length <= max) return all;
  }
  return joinWithMore(items, max, separator);
}

// Unrendered items become one shared string too long to ever fit, so joinWithMore counts them.
function withHidden(shown: string[], hidden: number, max: number): string[] {
  if (hidden === 0) return shown;
  return shown.concat(new Array<string>(hidden).fill(' '.repeat(max + 1)));
}

/**
 * The finished message: `text` cut to the message limit, and at most 50
 * blocks. Renderers bound themselves; this is the last guard, and it keeps a
 * trailing actions block so buttons are never the part that is lost.
 */
export function finish(text: string, blocks: KnownBlock[]): SlackMessage {
  let out = blocks;
  if (blocks.length > LIMITS.messageBlocks) {
    const last = blocks[blocks.length - 1] as KnownBlock;
    const keepLast = last.type === 'actions';
    const room = LIMITS.messageBlocks - 1 - (keepLast ? 1 : 0);
    const dropped = blocks.length - room - (keepLast ? 1 : 0);
    out = [...blocks.slice(0, room), context(`… ${dropped} more sections left out`)];
    if (keepLast) out.push(last);
  }
  return { text: fitMrkdwn(text, LIMITS.messageText) || 'Harbormaster', blocks: out };
}
