/** How policy refusals write people, groups, channels and times in Slack: as mentions, links and date tokens. */
import type { PolicyNames } from '../../policy/words.js';
import { groupMention, mention, slackDate } from './blocks.js';

export const SLACK_POLICY_NAMES: PolicyNames = {
  user: mention,
  group: groupMention,
  channel: (id) => `<#${id.replace(/[^A-Za-z0-9]/g, '')}>`,
  time: slackDate,
};
