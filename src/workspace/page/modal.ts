/**
 * The modal in front of the viewer (the top of their view stack): title with
 * a close control, blocks with inputs that keep what was typed across
 * redraws, errors beside their fields, and the Close/Submit buttons the view
 * names. Esc closes it as the close control does; leaving or reloading the
 * page closes the whole stack, as Slack does when its client goes away
 * (the app hears `view_closed` where it asked to, nothing is submitted).
 */
import { post } from './api.js';
import {
  type ElementEvent,
  type InputState,
  type InputValue,
  type RenderContext,
  renderBlocks,
} from './blocks.js';
import { h } from './dom.js';
import type { InputBlock, StackedView, TextObject } from './types.js';

/** One input's entry in `view.state.values`. */
interface StateValue {
  type: string;
  value?: string;
  selected_option?: { text: TextObject; value: string };
}

interface ModalHost {
  viewer(): string;
  renderContext(): Omit<RenderContext, 'inputs' | 'onAction'>;
  toast(text: string): void;
}

const inputsByView = new Map<string, Map<string, InputValue>>();
let shownKey = '';
/** The modal on screen: whose it is and which view, for Esc and for leaving the page. */
let shown: { user: string; viewId: string } | undefined;

function closeShown(clear: boolean): void {
  if (!shown) return;
  void post('close', { user: shown.user, viewId: shown.viewId, clear }, clear);
}

document.addEventListener('keydown', (event) => {
  // A confirmation dialog over the modal takes its own Esc (and marks the event handled).
  if (event.key !== 'Escape' || event.defaultPrevented || !shown) return;
  event.preventDefault();
  closeShown(false);
});
window.addEventListener('pagehide', () => closeShown(true));

/** Slack's `view.state.values` for what the person touched (the workspace fills in the rest). */
function stateValues(values: Map<string, InputValue>): Record<string, Record<string, StateValue>> {
  const out: Record<string, Record<string, StateValue>> = {};
  for (const [blockId, v] of values) {
    // An element without an action id is keyed "undefined", as a computed key always made it.
    out[blockId] =
      v.type === 'static_select' || v.type === 'external_select'
        ? {
            [String(v.actionId)]: {
              type: v.type,
              selected_option: {
                text: { type: 'plain_text', text: v.option.text, emoji: true },
                value: v.option.value,
              },
            },
          }
        : { [String(v.actionId)]: { type: v.type, value: v.value } };
  }
  return out;
}

/** Draws (or removes) the modal; leaves it alone when nothing it shows changed, so focus stays. */
export function renderModal(root: HTMLElement, stack: StackedView[], host: ModalHost): void {
  const top = stack.at(-1);
  const key = top ? `${top.view.id}|${top.view.hash}|${JSON.stringify(top.errors)}` : '';
  if (key === shownKey) return;
  shownKey = key;
  root.replaceChildren();
  shown = top ? { user: host.viewer(), viewId: String(top.view.id) } : undefined;
  if (!top) return;
  const view = top.view;
  const close = () => void post('close', { user: host.viewer(), viewId: view.id });
  let values = inputsByView.get(view.id);
  if (!values) {
    values = new Map();
    inputsByView.set(view.id, values);
  }
  // Inputs whose block and action ids survive a views.update keep what was typed, as in Slack.
  for (const [blockId, v] of [...values]) {
    const block = view.blocks.find((b): b is InputBlock => b.type === 'input' && b.block_id === blockId);
    if (!block || block.element?.action_id !== v.actionId) values.delete(blockId);
  }
  const kept = values;
  const act = async (verb: 'action' | 'submit', body: Partial<ElementEvent>) => {
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
    suggest: async (event) => {
      const outcome = await post('suggest', {
        user: host.viewer(),
        viewId: view.id,
        values: stateValues(kept),
        ...event,
      });
      if (!outcome.ok) host.toast(`We had some trouble connecting: ${outcome.error}`);
      return outcome.options ?? [];
    },
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
          h('span', {}, String(view.title?.text ?? '')),
          stack.length > 1 ? h('span', { class: 'stack' }, ` (${stack.length})`) : null,
          h('button', { type: 'button', class: 'modal-close', 'aria-label': 'Close', onclick: close }, '×'),
        ),
        h('div', { class: 'modal-body' }, renderBlocks(view.blocks ?? [], ctx)),
        h(
          'div',
          { class: 'modal-footer' },
          h(
            'button',
            { type: 'button', class: 'btn', onclick: close },
            String(view.close?.text ?? (submit ? 'Cancel' : 'Close')),
          ),
          submit ? h('button', { type: 'submit', class: 'btn btn-primary' }, String(submit)) : null,
        ),
      ),
    ),
  );
}
