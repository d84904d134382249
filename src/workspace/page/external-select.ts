/**
 * An external select drawn as Slack draws it: a search field that, once
 * `min_query_length` characters are typed, lists what the app offered for
 * them (the workspace sends the app a signed `block_suggestion`); picking one
 * fills the field. Answers to older queries are dropped, so a slow answer
 * never overwrites a newer one.
 */
import { h } from './dom.js';
import type { ExternalSelectElement } from './types.js';

/** Slack asks the app only after this many characters unless the element says otherwise. */
const DEFAULT_MIN_QUERY = 3;

export interface PickedOption {
  text: string;
  value: string;
}

interface ExternalSelectOptions {
  element: ExternalSelectElement;
  blockId: string;
  /** The option shown as chosen (what the person picked before a redraw, else the initial option). */
  chosen?: PickedOption;
  /** Asks the app for the options matching `query`. */
  suggest(query: string): Promise<PickedOption[]>;
  onPick(option: PickedOption): void;
}

/** The search field and its list of offered options. */
export function externalSelect(o: ExternalSelectOptions): HTMLElement {
  const min = o.element.min_query_length ?? DEFAULT_MIN_QUERY;
  const listId = `suggest-${o.blockId}`;
  let asked = 0;
  const list = h('ul', { class: 'suggestions', role: 'listbox', id: listId, hidden: true });
  const field = h('input', {
    type: 'text',
    class: 'text-input external-select',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-controls': listId,
    'aria-expanded': 'false',
    'data-action-id': o.element.action_id,
    'data-block-id': o.blockId,
    placeholder: o.element.placeholder?.text,
    value: o.chosen?.text ?? '',
    oninput: () => void ask(field.value),
  });
  const show = (options: PickedOption[] | undefined) => {
    list.replaceChildren(
      ...(options ?? []).map((option) =>
        h(
          'li',
          {
            class: 'suggestion',
            role: 'option',
            'data-value': option.value,
            onmousedown: (event: Event) => {
              // Before the field loses focus, so the pick lands in it.
              event.preventDefault();
              field.value = option.text;
              show(undefined);
              o.onPick(option);
            },
          },
          option.text,
        ),
      ),
    );
    if (options && options.length === 0) list.append(h('li', { class: 'suggestion empty' }, 'No results'));
    list.hidden = options === undefined;
    field.setAttribute('aria-expanded', String(options !== undefined));
  };
  const ask = async (query: string) => {
    asked += 1;
    const mine = asked;
    if (query.length < min) return show(undefined);
    const options = await o.suggest(query);
    if (mine === asked) show(options);
  };
  return h('div', { class: 'external-select-box' }, field, list);
}
