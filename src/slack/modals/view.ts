/**
 * The modal shell every view shares: callback id, metadata, title and
 * buttons. The loading and error views have no submit button, so nothing can
 * be submitted before the choices are loaded.
 */
import type { KnownBlock, ModalView } from '@slack/types';
import type { ChangeFailure } from '../../changes/change.js';
import { FORMS } from '../../operations/index.js';
import { MODAL_CALLBACKS, MODAL_RELOAD_ACTION, type ModalMetadata } from '../ids.js';
import { escapeMrkdwn, LIMITS, truncate } from '../limits.js';
import { failureText } from '../render/failure-text.js';
import { contextBlock, sectionBlock } from './blocks.js';
import { writeMetadata } from './metadata.js';

/** Title text per modal kind, each ≤ 24 characters (src/operations/catalogue.ts). */
export const MODAL_TITLES = Object.fromEntries(FORMS.map((f) => [f.kind, f.form.title])) as Record<
  ModalMetadata['kind'],
  string
>;

function label(text: string) {
  return { type: 'plain_text' as const, text: truncate(text, LIMITS.modalButton) };
}

/** A modal for `meta` with these blocks; `submit` only when it can be submitted. */
export function modalView(
  meta: ModalMetadata,
  blocks: KnownBlock[],
  buttons: { submit?: string; close: string },
): ModalView {
  return {
    type: 'modal',
    callback_id: MODAL_CALLBACKS[meta.kind],
    private_metadata: writeMetadata(meta),
    title: label(MODAL_TITLES[meta.kind]),
    ...(buttons.submit ? { submit: label(buttons.submit) } : {}),
    close: label(buttons.close),
    blocks,
  };
}

/** The view opened at once from the trigger: title, "Loading…" context, no API calls. */
export function openingView(meta: ModalMetadata): ModalView {
  return modalView(meta, [contextBlock('Loading…')], { close: 'Cancel' });
}

/** What failed while loading, a retry button (the reload action) and Close. */
export function errorView(meta: ModalMetadata, failure: ChangeFailure): ModalView {
  return modalView(
    meta,
    [
      sectionBlock(`:warning: Could not load this form. ${escapeMrkdwn(failureText(failure))}`),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: MODAL_RELOAD_ACTION,
            text: { type: 'plain_text', text: 'Try again' },
            value: 'retry',
          },
        ],
      },
    ],
    { close: 'Close' },
  );
}
