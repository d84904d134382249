/**
 * The modal in front of the viewer (the top of their view stack): title,
 * blocks with inputs that keep what was typed across redraws, errors beside
 * their fields, and the Close/Submit buttons the view names.
 */
import { post } from './api.js';
import { type InputState, type RenderContext, renderBlocks } from './blocks.js';
import { h } from './dom.js';

type Json = Record<string, any>;

interface ModalHost {
  viewer(): string;
  renderContext(): Omit<RenderContext, 'inputs' | 'onAction'>;
  toast(text: string): void;
}

const inputsByView = new Map<string, Map<string, Json>>();
let shownKey = '';

/** Slack's `view.state.values` for what the person touched (the workspace fills in the rest). */
function stateValues(values: Map<string, Json>): Record<string, Record<string, Json>> {
  const out: Record<string, Record<string, Json>> = {};
  for (const [blockId, v] of values) {
    out[blockId] =
      v.type === 'static_select'
        ? {
            [v.actionId]: {
              type: 'static_select',
              selected_option: {
                text: { type: 'plain_text', text: v.option.text, emoji: true },
                value: v.option.value,
              },
            },
          }
        : { [v.actionId]: { type: v.type, value: v.value } };
  }
  return out;
}

/** Draws (or removes) the modal; leaves it alone when nothing it shows changed, so focus stays. */
export function renderModal(
  root: HTMLElement,
  stack: { view: Json; errors: Record<string, string> }[],
  host: ModalHost,
): void {
  const top = stack.at(-1);
  const key = top ? `${top.view.id}|${top.view.hash}|${JSON.stringify(top.errors)}` : '';
  if (key === shownKey) return;
  shownKey = key;
  root.replaceChildren();
  if (!top) return;
  const view = top.view;
  let values = inputsByView.get(view.id);
  if (!values) {
    values = new Map();
    inputsByView.set(view.id, values);
  }
  // Inputs whose block and action ids survive a views.update keep what was typed, as in Slack.
  for (const [blockId, v] of [...values]) {
    const block = (view.blocks as Json[]).find((b) => b.type === 'input' && b.block_id === blockId);
    if (!block || block.element?.action_id !== v.actionId) values.delete(blockId);
  }
  const kept = values;
  const act = async (verb: 'action' | 'submit', body: Json) => {
    const outcome = await post(verb, {
      user: host.viewer(),
      viewId: view.id,
      values: stateValues(kept),
      ...body,
    });
    if (!outcome.ok) host.toast(`We had some trouble connecting: ${outcome.error}`);
  };
  const inputs: InputState = {
    values: kept,
    errors: top.errors,
    onDispatch: (event) => void act('action', event),
  };
  const ctx: RenderContext = {
    ...host.renderContext(),
    inputs,
    onAction: (event) => void act('action', event),
  };
  const submit = view.submit?.text;
  root.append(
    h(
      'div',
      { class: 'overlay modal-overlay' },
      h(
        'form',
        {
          class: 'modal',
          role: 'dialog',
          'aria-label': String(view.title?.text ?? ''),
          'data-view-id': view.id,
          onsubmit: (event: Event) => {
            event.preventDefault();
            void act('submit', {});
          },
        },
        h(
          'div',
          { class: 'modal-title' },
          String(view.title?.text ?? ''),
          stack.length > 1 ? h('span', { class: 'stack' }, ` (${stack.length})`) : null,
        ),
        h('div', { class: 'modal-body' }, renderBlocks(view.blocks ?? [], ctx)),
        h(
          'div',
          { class: 'modal-footer' },
          h(
            'button',
            {
              type: 'button',
              class: 'btn',
              onclick: () => void post('close', { user: host.viewer(), viewId: view.id }),
            },
            String(view.close?.text ?? (submit ? 'Cancel' : 'Close')),
          ),
          submit ? h('button', { type: 'submit', class: 'btn btn-primary' }, String(submit)) : null,
        ),
      ),
    ),
  );
}
