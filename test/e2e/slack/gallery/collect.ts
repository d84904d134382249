/**
 * What the message gallery records: every surface the bot drew (messages,
 * ephemerals, response_url answers, modal views, modal acks) between two
 * points of a scenario, with the run-to-run noise (ids, timestamps, dates)
 * replaced by stable placeholders so the gallery only changes when words do.
 */
import type { RecordedCall } from '../../../../src/workspace/stand-in.js';

/** One surface the bot drew. */
export interface Surface {
  /** How it reached Slack: `chat.postMessage`, `response_url`, `views.open`, `view_submission ack`... */
  via: string;
  text?: string;
  blocks?: unknown[];
  /** For modal views: title, submit and close labels. */
  title?: string;
  /** Extra facts worth a reviewer's eye (thread reply, replace_original, response_action). */
  notes: string[];
}

const DRAWING_METHODS = new Set([
  'chat.postMessage',
  'chat.update',
  'chat.postEphemeral',
  'response_url',
  'views.open',
  'views.update',
  'views.push',
]);

/** The surfaces among recorded calls (in order). */
export function surfacesOf(calls: readonly RecordedCall[]): Surface[] {
  const out: Surface[] = [];
  for (const call of calls) {
    if (!DRAWING_METHODS.has(call.method)) continue;
    const body = call.body as Record<string, unknown>;
    if (call.method.startsWith('views.')) {
      out.push(viewSurface(call.method, body.view as Record<string, unknown>));
      continue;
    }
    const notes: string[] = [];
    if (body.thread_ts) notes.push('in a thread');
    if (body.reply_broadcast) notes.push('also sent to the channel');
    if (body.response_type) notes.push(`response_type: ${String(body.response_type)}`);
    if (body.replace_original) notes.push('replaces the original');
    if (body.delete_original) notes.push('deletes the original');
    out.push({
      via: call.method,
      ...(typeof body.text === 'string' ? { text: body.text } : {}),
      ...(Array.isArray(body.blocks) ? { blocks: body.blocks } : {}),
      notes,
    });
  }
  return out;
}

/** A modal view (opened, updated, or sent back in a submission's ack). */
export function viewSurface(via: string, view: Record<string, unknown> | undefined): Surface {
  const label = (v: unknown) => (v as { text?: string } | undefined)?.text;
  const notes = [
    label(view?.submit) ? `submit: ${label(view?.submit)}` : '',
    label(view?.close) ? `close: ${label(view?.close)}` : '',
  ].filter(Boolean);
  return {
    via,
    ...(label(view?.title) ? { title: label(view?.title) } : {}),
    blocks: (view?.blocks as unknown[]) ?? [],
    notes,
  };
}

/** The surface a view_submission ack describes (errors or a new view), if any. */
export function ackSurface(body: unknown): Surface | undefined {
  const ack = body as {
    response_action?: string;
    errors?: Record<string, string>;
    view?: Record<string, unknown>;
  };
  if (!ack || typeof ack !== 'object' || !ack.response_action) return undefined;
  if (ack.response_action === 'errors') {
    return {
      via: 'view_submission ack (response_action: errors)',
      text: Object.entries(ack.errors ?? {})
        .map(([block, message]) => `${block}: ${message}`)
        .join('\n'),
      notes: [],
    };
  }
  if (ack.view) return viewSurface(`view_submission ack (response_action: ${ack.response_action})`, ack.view);
  return undefined;
}

/** The words a person reads in Block Kit, one line per text-bearing element, in order. */
export function readableText(blocks: readonly unknown[]): string[] {
  const lines: string[] = [];
  const textOf = (t: unknown) => (t as { text?: string } | undefined)?.text;
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const b = node as Record<string, unknown>;
    if (b.type === 'header') lines.push(`# ${textOf(b.text)}`);
    else if (b.type === 'section') {
      if (textOf(b.text)) lines.push(String(textOf(b.text)));
      for (const f of (b.fields as unknown[]) ?? []) lines.push(String(textOf(f)));
      if (b.accessory) visit(b.accessory);
    } else if (b.type === 'context') {
      lines.push((b.elements as unknown[]).map((e) => textOf(e) ?? '').join(' '));
    } else if (b.type === 'actions') {
      for (const el of (b.elements as unknown[]) ?? []) visit(el);
    } else if (b.type === 'input') {
      const el = b.element as Record<string, unknown> | undefined;
      const initial =
        (el?.initial_value as string | undefined) ?? textOf((el?.initial_option as { text?: unknown })?.text);
      const options = ((el?.options as { text: unknown }[]) ?? []).map((o) => textOf(o.text));
      lines.push(
        [
          `[input] ${textOf(b.label)}${b.optional ? ' (optional)' : ''}`,
          initial ? `= ${initial}` : '',
          textOf(el?.placeholder) ? `placeholder: ${textOf(el?.placeholder)}` : '',
          options.length ? `options: ${options.join(', ')}` : '',
          textOf(b.hint) ? `hint: ${textOf(b.hint)}` : '',
        ]
          .filter(Boolean)
          .join(' · '),
      );
    } else if (b.type === 'button') {
      const confirm = b.confirm as { title?: unknown; text?: unknown } | undefined;
      lines.push(
        `[button${b.style ? ` ${String(b.style)}` : ''}] ${textOf(b.text)}${
          confirm ? ` (asks: ${textOf(confirm.title)}: ${textOf(confirm.text)})` : ''
        }`,
      );
    } else if (b.type === 'divider') lines.push('---');
  };
  for (const block of blocks) visit(block);
  return lines;
}

/** Replaces what differs from run to run (ids, timestamps, dates) with stable placeholders. */
export function normalize(text: string): string {
  return (
    text
      .replace(/<!date\^\d+\^([^|>]*)\|[^>]*>/g, '<!date^…^$1|…>')
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, '<uuid>')
      .replace(/\b\d{10}\.\d{6}\b/g, '<ts>')
      // Permalinks carry the message ts without its dot.
      .replace(/\/p\d{16}\b/g, '/p<ts>')
      .replace(/\brel-[0-9a-f]{8}\b/g, 'rel-<id>')
      // How far a new vessel got before the follow-up looked depends on timing.
      .replace(/is placed \(now \w+\)/g, 'is placed (now <state>)')
      // A stalled rollout is told after its stall time, on the bot's real clock: the span it
      // names is that time or a little more, by how busy the machine is.
      .replace(/has not moved for [^:]+:/g, 'has not moved for <span>:')
      // A release's length is measured on the same real clock: "0 s" or "1 s" by the machine's load.
      .replace(/ended after [^:]+:/g, 'ended after <span>:')
      .replace(/\bV[0-9A-Z]{6,}\b/g, '<view-id>')
      .replace(/(error id |Error id:? |error )`?[0-9a-f]{8}\b/gi, '$1<error-id>')
      .replace(/\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?( UTC|Z)?/g, '<time>')
      .replace(/\b\d+(\.\d+)? ?ms\b/g, '<n> ms')
  );
}
