/**
 * Slack's size limits, and the helpers every renderer uses to stay inside
 * them. Slack rejects (or silently truncates) oversized surfaces, so we trim
 * ourselves and say what was left out. `surfaceProblems` is what the size-limit
 * tests run over every rendered surface.
 */
import type { KnownBlock, View } from '@slack/types';

export const LIMITS = {
  messageText: 4000,
  messageBlocks: 50,
  modalBlocks: 100,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  contextElements: 10,
  contextText: 3000,
  headerText: 150,
  buttonText: 75,
  accessibilityLabel: 75,
  buttonValue: 2000,
  actionId: 255,
  blockId: 255,
  actionsElements: 25,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3000,
  callbackId: 255,
  optionText: 75,
  optionValue: 150,
  selectOptions: 100,
  inputLabel: 2000,
  placeholder: 150,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
} as const;

/** Escapes the three characters mrkdwn treats specially (log lines and names may contain them). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `text` cut to at most `max` characters, ending in an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * Joins as many `items` as fit in `max` characters (with `separator`), then
 * "… and N more" for the rest. The result is never longer than `max`.
 */
export function joinWithMore(items: readonly string[], max: number, separator = '\n'): string {
  const all = items.join(separator);
  if (all.length <= max) return all;
  const out: string[] = [];
  let length = 0;
  for (let i = 0; i < items.length; i++) {
    const add = (out.length ? separator.length : 0) + (items[i] as string).length;
    const rest = items.length - i - 1;
    const more = rest > 0 ? `${separator}… and ${rest} more`.length : 0;
    if (length + add + more > max) break;
    out.push(items[i] as string);
    length += add;
  }
  const more = `… and ${items.length - out.length} more`;
  return truncate(out.length ? `${out.join(separator)}${separator}${more}` : more, max);
}

/** Keeps at most `max` items, replacing the rest with one item built by `more(n)`. */
export function takeWithMore<T>(items: readonly T[], max: number, more: (hidden: number) => T): T[] {
  if (items.length <= max) return [...items];
  return [...items.slice(0, max - 1), more(items.length - (max - 1))];
}

/** Every size-limit violation in a message's text and blocks (empty when it is fine). */
export function messageProblems(message: { text: string; blocks: readonly KnownBlock[] }): string[] {
  const problems: string[] = [];
  if (message.text.length > LIMITS.messageText)
    problems.push(`text is ${message.text.length} > ${LIMITS.messageText}`);
  if (message.text.length === 0) problems.push('text is empty');
  if (message.blocks.length > LIMITS.messageBlocks)
    problems.push(`${message.blocks.length} blocks > ${LIMITS.messageBlocks}`);
  message.blocks.forEach((b, i) => {
    blockProblems(b, `blocks[${i}]`, problems);
  });
  return problems;
}

/** Every size-limit violation in a modal view (empty when it is fine). */
export function viewProblems(view: View): string[] {
  const problems: string[] = [];
  if (view.blocks.length > LIMITS.modalBlocks)
    problems.push(`${view.blocks.length} blocks > ${LIMITS.modalBlocks}`);
  if (view.type === 'modal') {
    check(view.title.text, LIMITS.modalTitle, 'title', problems);
    if (view.submit) check(view.submit.text, LIMITS.modalButton, 'submit', problems);
    if (view.close) check(view.close.text, LIMITS.modalButton, 'close', problems);
  }
  if (view.private_metadata)
    check(view.private_metadata, LIMITS.privateMetadata, 'private_metadata', problems);
  if (view.callback_id) check(view.callback_id, LIMITS.callbackId, 'callback_id', problems);
  view.blocks.forEach((b, i) => {
    blockProblems(b as KnownBlock, `blocks[${i}]`, problems);
  });
  return problems;
}

function check(value: string | undefined, max: number, where: string, problems: string[], min = 0): void {
  if (value === undefined) return;
  if (value.length > max) problems.push(`${where} is ${value.length} > ${max}`);
  if (value.length < min) problems.push(`${where} is empty`);
}

// Walks a block and its elements.
function blockProblems(block: KnownBlock, where: string, problems: string[]): void {
  check(block.block_id, LIMITS.blockId, `${where}.block_id`, problems);
  switch (block.type) {
    case 'section':
      if (block.text) check(block.text.text, LIMITS.sectionText, `${where}.text`, problems, 1);
      if (block.fields) {
        if (block.fields.length > LIMITS.sectionFields)
          problems.push(`${where}.fields has ${block.fields.length} > ${LIMITS.sectionFields}`);
        block.fields.forEach((f: { text: string }, i: number) => {
          check(f.text, LIMITS.fieldText, `${where}.fields[${i}]`, problems, 1);
        });
      }
      if (block.accessory) elementProblems(block.accessory, `${where}.accessory`, problems);
      break;
    case 'header':
      check(block.text.text, LIMITS.headerText, `${where}.text`, problems, 1);
      break;
    case 'context':
      if (block.elements.length > LIMITS.contextElements)
        problems.push(`${where}.elements has ${block.elements.length} > ${LIMITS.contextElements}`);
      block.elements.forEach((e, i) => {
        // Images carry no text.
        check('text' in e ? e.text : undefined, LIMITS.contextText, `${where}.elements[${i}]`, problems);
      });
      break;
    case 'actions':
      if (block.elements.length > LIMITS.actionsElements)
        problems.push(`${where}.elements has ${block.elements.length} > ${LIMITS.actionsElements}`);
      block.elements.forEach((e, i) => {
        elementProblems(e, `${where}.elements[${i}]`, problems);
      });
      break;
    case 'input':
      check(block.label?.text, LIMITS.inputLabel, `${where}.label`, problems, 1);
      elementProblems(block.element, `${where}.element`, problems);
      break;
  }
}

/**
 * The fields of an element the limits cover: every Block Kit element has this
 * shape (an image has no action_id, a button no options; those checks skip it).
 */
interface ElementFields {
  type: string;
  action_id?: string;
  text?: { text: string };
  value?: string;
  accessibility_label?: string;
  placeholder?: { text: string };
  options?: readonly { text: { text: string }; value?: string }[];
  confirm?: {
    title?: { text: string };
    text?: { text: string };
    confirm?: { text: string };
    deny?: { text: string };
  };
}

function elementProblems(el: ElementFields | undefined, where: string, problems: string[]): void {
  if (!el) return;
  check(el.action_id, LIMITS.actionId, `${where}.action_id`, problems);
  if (el.type === 'button') {
    check(el.text?.text, LIMITS.buttonText, `${where}.text`, problems, 1);
    check(el.accessibility_label, LIMITS.accessibilityLabel, `${where}.accessibility_label`, problems);
    check(el.value, LIMITS.buttonValue, `${where}.value`, problems);
  }
  if (el.placeholder) check(el.placeholder.text, LIMITS.placeholder, `${where}.placeholder`, problems);
  if (el.options) {
    if (el.options.length > LIMITS.selectOptions)
      problems.push(`${where}.options has ${el.options.length} > ${LIMITS.selectOptions}`);
    el.options.forEach((o, i) => {
      check(o.text.text, LIMITS.optionText, `${where}.options[${i}].text`, problems, 1);
      check(o.value, LIMITS.optionValue, `${where}.options[${i}].value`, problems, 1);
    });
  }
  if (el.confirm) {
    check(el.confirm.title?.text, LIMITS.confirmTitle, `${where}.confirm.title`, problems);
    check(el.confirm.text?.text, LIMITS.confirmText, `${where}.confirm.text`, problems);
    check(el.confirm.confirm?.text, LIMITS.confirmButton, `${where}.confirm.confirm`, problems);
    check(el.confirm.deny?.text, LIMITS.confirmButton, `${where}.confirm.deny`, problems);
  }
}
