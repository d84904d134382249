/**
 * Block Kit drawn as Slack draws it, for every block and element the bot
 * sends: header, section (text, fields, accessory), context, divider,
 * actions, image, input; buttons (primary/danger, confirm dialogs), static
 * and external (type-ahead) selects, text inputs. Anything else is shown as an unsupported block, so a
 * surface the page cannot draw is visible rather than silently missing.
 */
import { confirmThen } from './dialog.js';
import { h } from './dom.js';
import { externalSelect } from './external-select.js';
import { type MrkdwnContext, mrkdwnToHtml, plainToHtml } from './mrkdwn.js';
import type {
  Block,
  BlockElement,
  ExternalSelectElement,
  InputBlock,
  OptionObject,
  StaticSelectElement,
  TextInputElement,
  TextObject,
} from './types.js';

export interface ElementEvent {
  actionId?: string;
  blockId: string;
  value?: string;
  selectedOption?: { text: string; value: string };
}

export interface RenderContext {
  mrkdwn: MrkdwnContext;
  /** A click or a select change; the page turns it into a signed block_actions request. */
  onAction(event: ElementEvent): void;
  /** Inside a modal: input values by block id (kept across redraws) and field errors. */
  inputs?: InputState;
}

/** What the person did to one input (a select's option, or the text typed), kept across redraws. */
export type InputValue =
  | {
      type: 'static_select' | 'external_select';
      actionId?: string;
      option: { text: string; value: string };
      value?: undefined;
    }
  | { type: NonNullable<TextInputElement['type']>; actionId?: string; value: string; option?: undefined };

export interface InputState {
  values: Map<string, InputValue>;
  errors: Record<string, string>;
  /** An input with dispatch_action changed (select) or Enter was pressed (text). */
  onDispatch(event: ElementEvent): void;
  /** Options the app offers for what was typed into an external select. */
  suggest?(event: {
    actionId: string;
    blockId: string;
    query: string;
  }): Promise<{ text: string; value: string }[]>;
}

/** A text object (mrkdwn or plain_text) as a span. */
function textObject(text: TextObject | undefined, ctx: RenderContext, cls = 'text'): HTMLElement {
  const html =
    text?.type === 'mrkdwn'
      ? mrkdwnToHtml(String(text.text ?? ''), ctx.mrkdwn)
      : plainToHtml(String(text?.text ?? ''));
  return h('span', { class: `${cls} ${text?.type === 'mrkdwn' ? 'mrkdwn' : 'plain'}`, html });
}

/** Every block, in order. */
export function renderBlocks(blocks: readonly Block[], ctx: RenderContext): HTMLElement {
  return h('div', { class: 'blocks' }, ...blocks.map((b) => renderBlock(b, ctx)));
}

function renderBlock(block: Block, ctx: RenderContext): HTMLElement {
  const blockId = String(block.block_id ?? '');
  switch (block.type) {
    case 'header':
      return h('div', { class: 'block header' }, textObject(block.text, ctx));
    case 'divider':
      return h('hr', { class: 'block divider' });
    case 'section':
      return h(
        'div',
        { class: 'block section' },
        h(
          'div',
          { class: 'section-body' },
          block.text ? textObject(block.text, ctx) : null,
          Array.isArray(block.fields)
            ? h('div', { class: 'fields' }, ...block.fields.map((f) => textObject(f, ctx, 'field')))
            : null,
        ),
        block.accessory
          ? h('div', { class: 'accessory' }, renderElement(block.accessory, blockId, ctx))
          : null,
      );
    case 'context':
      return h(
        'div',
        { class: 'block context' },
        ...(block.elements ?? []).map((e) =>
          e.type === 'image' ? h('img', { src: e.image_url, alt: e.alt_text ?? '' }) : textObject(e, ctx),
        ),
      );
    case 'actions':
      return h(
        'div',
        { class: 'block actions' },
        ...(block.elements ?? []).map((e) => renderElement(e, blockId, ctx)),
      );
    case 'image':
      return h('img', { class: 'block image', src: block.image_url, alt: block.alt_text ?? '' });
    case 'input':
      return renderInput(block, ctx);
    default:
      return h(
        'div',
        { class: 'block unsupported' },
        `This block type (${String(block.type)}) is not supported here.`,
      );
  }
}

function renderElement(element: BlockElement, blockId: string, ctx: RenderContext): HTMLElement {
  if (element.type === 'button') {
    const fire = () =>
      ctx.onAction({
        actionId: element.action_id,
        blockId,
        ...(element.value !== undefined ? { value: String(element.value) } : {}),
      });
    return h(
      'button',
      {
        type: 'button',
        class: `btn ${element.style ? `btn-${element.style}` : ''}`,
        'data-action-id': element.action_id,
        // Slack reads a button's accessibility_label to screen readers instead of its text.
        'aria-label': element.accessibility_label,
        onclick: () => (element.confirm ? confirmThen(element.confirm, ctx, fire) : fire()),
      },
      String(element.text?.text ?? ''),
    );
  }
  if (element.type === 'static_select') {
    return staticSelect(element, blockId, (option) =>
      ctx.onAction({ actionId: element.action_id, blockId, selectedOption: option }),
    );
  }
  return h(
    'span',
    { class: 'unsupported' },
    `This element type (${String(element.type)}) is not supported here.`,
  );
}

function options(element: StaticSelectElement): OptionObject[] {
  if (Array.isArray(element.options)) return element.options;
  return (element.option_groups ?? []).flatMap((g) => g.options ?? []);
}

function staticSelect(
  element: StaticSelectElement,
  blockId: string,
  onChange: (option: { text: string; value: string }) => void,
  selected?: string,
): HTMLSelectElement {
  const initial = selected ?? element.initial_option?.value;
  const select = h(
    'select',
    {
      class: 'select',
      'data-action-id': element.action_id,
      'data-block-id': blockId,
      onchange: (event: Event) => {
        const target = event.target as HTMLSelectElement;
        const option = options(element).find((o) => o.value === target.value);
        if (option)
          onChange({ text: String(option.text?.text ?? option.value), value: String(option.value) });
      },
    },
    h(
      'option',
      { value: '', disabled: true, selected: initial === undefined },
      String(element.placeholder?.text ?? 'Select an item'),
    ),
    ...options(element).map((o) =>
      h('option', { value: o.value, selected: o.value === initial }, String(o.text?.text ?? o.value)),
    ),
  );
  return select;
}

function renderInput(block: InputBlock, ctx: RenderContext): HTMLElement {
  const blockId = String(block.block_id ?? '');
  const element: StaticSelectElement | ExternalSelectElement | TextInputElement = block.element ?? {};
  const state = ctx.inputs;
  const kept = state?.values.get(blockId);
  const error = state?.errors[blockId];
  const dispatch = (event: ElementEvent) => state?.onDispatch(event);
  let control: HTMLElement;
  if (element.type === 'static_select') {
    control = staticSelect(
      element,
      blockId,
      (option) => {
        state?.values.set(blockId, { type: 'static_select', actionId: element.action_id, option });
        if (block.dispatch_action) dispatch({ actionId: element.action_id, blockId, selectedOption: option });
      },
      kept?.option?.value,
    );
  } else if (element.type === 'external_select') {
    const initial = element.initial_option;
    const actionId = String(element.action_id);
    control = externalSelect({
      element,
      blockId,
      ...(kept?.option
        ? { chosen: kept.option }
        : initial
          ? { chosen: { text: String(initial.text?.text ?? initial.value), value: String(initial.value) } }
          : {}),
      suggest: (query) => state?.suggest?.({ actionId, blockId, query }) ?? Promise.resolve([]),
      onPick: (option) => {
        state?.values.set(blockId, { type: 'external_select', actionId, option });
        if (block.dispatch_action) dispatch({ actionId, blockId, selectedOption: option });
      },
    });
  } else {
    const value = kept?.value ?? element.initial_value ?? '';
    const attrs = {
      class: 'text-input',
      'data-action-id': element.action_id,
      'data-block-id': blockId,
      placeholder: element.placeholder?.text,
      oninput: (event: Event) =>
        state?.values.set(blockId, {
          type: element.type ?? 'plain_text_input',
          actionId: element.action_id,
          value: (event.target as HTMLInputElement).value,
        }),
      onkeydown: (event: KeyboardEvent) => {
        if (event.key === 'Enter' && block.dispatch_action && !element.multiline) {
          event.preventDefault();
          dispatch({ actionId: element.action_id, blockId, value: (event.target as HTMLInputElement).value });
        }
      },
    };
    control = element.multiline ? h('textarea', attrs, value) : h('input', { ...attrs, type: 'text', value });
  }
  return h(
    'div',
    { class: `block input${error ? ' has-error' : ''}`, 'data-block-id': blockId },
    h(
      'label',
      { class: 'input-label' },
      String(block.label?.text ?? ''),
      block.optional ? h('span', { class: 'optional' }, ' (optional)') : null,
    ),
    control,
    block.hint ? h('div', { class: 'input-hint' }, String(block.hint.text ?? '')) : null,
    error ? h('div', { class: 'input-error', role: 'alert' }, error) : null,
  );
}
