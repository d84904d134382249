/**
 * A modal that says where things stand: a live tail's form while it starts
 * ("Starting…", then the outcome), a release that ended under an open form.
 * (A change form closes with its submission instead: its preview is the answer.)
 */
import type { ModalView } from '@slack/types';
import { LIMITS, truncate } from '../limits.js';

/** A closable modal showing one status text (mrkdwn). */
export function statusView(title: string, text: string): ModalView {
  return {
    type: 'modal',
    title: { type: 'plain_text', text: truncate(title, LIMITS.modalTitle) },
    close: { type: 'plain_text', text: 'Close' },
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) } }],
  };
}
