/**
 * The hard limits Slack enforces when a message or modal arrives, written
 * independently of src/slack/render/limits.ts so an end-to-end test catches a
 * renderer that drifted from Slack rather than agreeing with itself. Errors
 * use Slack's codes and its `[ERROR] ... [json-pointer:...]` message style.
 */
import type { Args } from './http-body.js';
import { field, isObject } from './json.js';

export interface SurfaceError {
  error: string;
  messages: string[];
}

const MAX_MESSAGE_TEXT = 40_000;

/** Why Slack would refuse this chat.postMessage/chat.update/response body, or undefined. */
export function messageError(args: Args, requireContent = true): SurfaceError | undefined {
  const { text, blocks } = args;
  if (blocks !== undefined && !Array.isArray(blocks)) return { error: 'invalid_blocks_format', messages: [] };
  const hasText = typeof text === 'string' && text.length > 0;
  const hasBlocks = Array.isArray(blocks) && blocks.length > 0;
  if (requireContent && !hasText && !hasBlocks && args.attachments === undefined) {
    return { error: 'no_text', messages: [] };
  }
  if (typeof text === 'string' && text.length > MAX_MESSAGE_TEXT)
    return { error: 'msg_too_long', messages: [] };
  const problems = Array.isArray(blocks) ? blockProblems(blocks, 50) : [];
  return problems.length ? { error: 'invalid_blocks', messages: problems } : undefined;
}

/** Why Slack would refuse this view in views.open/push/update, or undefined. */
export function viewError(view: unknown): SurfaceError | undefined {
  if (!isObject(view) || Array.isArray(view)) {
    return { error: 'invalid_arguments', messages: ['[ERROR] missing required field: view'] };
  }
  const v = view;
  const problems: string[] = [];
  if (v.type !== 'modal' && v.type !== 'home') problems.push(err('must be modal or home', '/view/type'));
  if (v.type === 'modal') {
    const title = field(v.title, 'text');
    if (typeof title !== 'string') problems.push(err('missing required field: title', '/view/title'));
    else tooLong(title, 24, '/view/title/text', problems);
    if (v.submit) tooLong(field(v.submit, 'text'), 24, '/view/submit/text', problems);
    if (v.close) tooLong(field(v.close, 'text'), 24, '/view/close/text', problems);
    const hasInput = Array.isArray(v.blocks) && v.blocks.some((b: unknown) => field(b, 'type') === 'input');
    if (hasInput && !v.submit)
      problems.push(err('submit is required when an input block is present', '/view'));
  }
  tooLong(v.private_metadata, 3000, '/view/private_metadata', problems);
  tooLong(v.callback_id, 255, '/view/callback_id', problems);
  if (!Array.isArray(v.blocks)) problems.push(err('missing required field: blocks', '/view/blocks'));
  else problems.push(...blockProblems(v.blocks, 100, '/view/blocks'));
  return problems.length ? { error: 'invalid_arguments', messages: problems } : undefined;
}

function err(what: string, pointer: string): string {
  return `[ERROR] ${what} [json-pointer:${pointer}]`;
}

function tooLong(value: unknown, max: number, pointer: string, problems: string[]): void {
  if (typeof value === 'string' && value.length > max) {
    problems.push(err(`must be less than ${max + 1} characters`, pointer));
  }
}

// Walks blocks for the limits Slack checks on arrival; read as plain JSON because Block Kit is a wide union.
function blockProblems(blocks: unknown[], maxBlocks: number, base = '/blocks'): string[] {
  const problems: string[] = [];
  if (blocks.length > maxBlocks) problems.push(err(`no more than ${maxBlocks} items allowed`, base));
  const seen = new Set<string>();
  blocks.forEach((block, i) => {
    const at = `${base}/${i}`;
    if (!isObject(block) || typeof block.type !== 'string') {
      problems.push(err('must provide an object with a type', at));
      return;
    }
    if (typeof block.block_id === 'string') {
      if (seen.has(block.block_id)) problems.push(err('duplicate block_id', `${at}/block_id`));
      seen.add(block.block_id);
      tooLong(block.block_id, 255, `${at}/block_id`, problems);
    }
    if (block.type === 'section') {
      if (block.text === undefined && block.fields === undefined) {
        problems.push(err('must provide either text or fields', at));
      }
      if (block.text !== undefined)
        textProblems(field(block.text, 'text'), 3000, `${at}/text/text`, problems);
      if (Array.isArray(block.fields)) {
        if (block.fields.length > 10) problems.push(err('no more than 10 items allowed', `${at}/fields`));
        block.fields.forEach((f: unknown, j: number) => {
          textProblems(field(f, 'text'), 2000, `${at}/fields/${j}/text`, problems);
        });
      }
      if (block.accessory) elementProblems(block.accessory, `${at}/accessory`, problems);
    }
    if (block.type === 'header') textProblems(field(block.text, 'text'), 150, `${at}/text/text`, problems);
    if (block.type === 'context' && Array.isArray(block.elements) && block.elements.length > 10) {
      problems.push(err('no more than 10 items allowed', `${at}/elements`));
    }
    if (block.type === 'actions' && Array.isArray(block.elements)) {
      if (block.elements.length > 25) problems.push(err('no more than 25 items allowed', `${at}/elements`));
      block.elements.forEach((e: unknown, j: number) => {
        elementProblems(e, `${at}/elements/${j}`, problems);
      });
    }
    if (block.type === 'input') elementProblems(block.element, `${at}/element`, problems);
  });
  return problems;
}

function textProblems(text: unknown, max: number, pointer: string, problems: string[]): void {
  if (typeof text !== 'string' || text.length === 0) {
    problems.push(err('must be more than 0 characters', pointer));
    return;
  }
  tooLong(text, max, pointer, problems);
}

function elementProblems(element: unknown, at: string, problems: string[]): void {
  if (!isObject(element)) return;
  tooLong(element.action_id, 255, `${at}/action_id`, problems);
  if (element.type === 'button') {
    textProblems(field(element.text, 'text'), 75, `${at}/text/text`, problems);
    tooLong(element.accessibility_label, 75, `${at}/accessibility_label`, problems);
    tooLong(element.value, 2000, `${at}/value`, problems);
  }
}
