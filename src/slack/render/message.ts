/**
 * The neutral shape every renderer returns: Block Kit blocks plus the plain
 * `text` Slack shows in notifications and screen readers (and uses when
 * blocks cannot be shown).
 */
import type { KnownBlock } from '@slack/types';

export interface SlackMessage {
  /** Fallback text, under 4000 characters. */
  text: string;
  blocks: KnownBlock[];
}
