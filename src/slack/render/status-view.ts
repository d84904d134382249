/**
 * The modal a submission turns into while the change is planned and after:
 * "Checking…", then where the preview was posted, or what was wrong. The
 * modal stays open until the user has seen the outcome.
 */
import type { ModalView } from '@slack/types';
import { LIMITS, truncate } from './limits.js';

/** A closable modal showing one status text (mrkdwn). */
export function statusView(title: string, text: string): ModalView {
  return {
    type: 'modal',
    title: { type: 'plain_text', text: truncate(title, LIMITS.modalTitle) },
    close: { type: 'plain_text', text: 'Close' },
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) } }],
  };
}
