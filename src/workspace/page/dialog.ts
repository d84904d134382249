/** A button's confirmation dialog, as Slack shows it: title, text, and the two buttons it names. */
import { h } from './dom.js';
import { type MrkdwnContext, mrkdwnToHtml, plainToHtml } from './mrkdwn.js';

type Json = Record<string, any>;

/** Shows `dialog`; runs `then` only if the person confirms (`ctx`: the block renderer's, whose mrkdwn it uses). */
export function confirmThen(dialog: Json, ctx: { mrkdwn: MrkdwnContext }, then: () => void): void {
  const close = () => overlay.remove();
  const text =
    dialog.text?.type === 'mrkdwn'
      ? mrkdwnToHtml(String(dialog.text.text ?? ''), ctx.mrkdwn)
      : plainToHtml(String(dialog.text?.text ?? ''));
  const overlay = h(
    'div',
    { class: 'overlay confirm-overlay' },
    h(
      'div',
      { class: 'dialog confirm-dialog', role: 'alertdialog', 'aria-label': String(dialog.title?.text ?? '') },
      h('div', { class: 'dialog-title' }, String(dialog.title?.text ?? 'Are you sure?')),
      h('div', { class: 'dialog-text', html: text }),
      h(
        'div',
        { class: 'dialog-buttons' },
        h('button', { type: 'button', class: 'btn', onclick: close }, String(dialog.deny?.text ?? 'Cancel')),
        h(
          'button',
          {
            type: 'button',
            class: `btn ${dialog.style === 'danger' ? 'btn-danger' : 'btn-primary'}`,
            onclick: () => {
              close();
              then();
            },
          },
          String(dialog.confirm?.text ?? 'Yes'),
        ),
      ),
    ),
  );
  document.body.append(overlay);
}
