/**
 * Replay protection for slash commands. A signature proves Slack sent a body,
 * and Bolt accepts it for five minutes, so anyone who captured one signed
 * `/harbor promote ...` could send it again and create a second pending
 * change. Each command is remembered in the store (so every replica and a
 * restarted bot know it) under its trigger id, which Slack issues once per
 * invocation; without one, under who ran what where, for a short window.
 */
import { createHash } from 'node:crypto';
import type { SlashCommand } from '@slack/bolt';
import type { RequestKeyStore } from '../../store/types.js';

/** Longer than Bolt's 5-minute signature window, with room for clock skew between Slack and us. */
export const TRIGGER_KEY_TTL_MS = 10 * 60_000;
/** Without a trigger id, the same text from the same person and channel this soon after is a replay. */
export const TEXT_KEY_TTL_MS = 10_000;

/** The key and how long to remember it. */
export function commandKey(command: SlashCommand): { key: string; ttlMs: number } {
  if (command.trigger_id) {
    return { key: `command:${command.team_id}:${command.trigger_id}`, ttlMs: TRIGGER_KEY_TTL_MS };
  }
  const what = createHash('sha256')
    .update(`${command.command}\n${command.text ?? ''}`)
    .digest('hex')
    .slice(0, 32);
  return {
    key: `command:${command.team_id}:${command.user_id}:${command.channel_id}:${what}`,
    ttlMs: TEXT_KEY_TTL_MS,
  };
}

/** True the first time this command is seen (on any replica); false for a replay. */
export async function firstSighting(
  store: RequestKeyStore,
  command: SlashCommand,
  now: number,
): Promise<boolean> {
  const { key, ttlMs } = commandKey(command);
  return store.rememberRequest(key, ttlMs, now);
}
