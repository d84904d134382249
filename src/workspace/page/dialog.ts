/** A button's confirmation dialog, as Slack shows it: title, text, and the two buttons it names. */
import { h } from './dom.js';
import { type MrkdwnContext, mrkdwnToHtml, plainToHtml } from './mrkdwn.js';
import type { ConfirmDialog } from './types.js';

/** Shows `dialog`; runs `then` only if the person confirms (`ctx`: the block renderer's, whose mrkdwn it uses). */
export function confirmThen(dialog: ConfirmDialog, ctx: { mrkdwn: MrkdwnContext }, then: () => void): void {
  // Esc denies, as in Slack; captured first and marked handled, so a modal under the dialog stays open.
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    close();
  };
  const close = () => {
    document.removeEventListener('keydown', onKey, true);
    overlay.remove();
  };
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
  document.addEventListener('keydown', onKey, true);
  document.body.append(overlay);
}
