/**
 * The slash command's usage hint and the message shortcuts, read from the app
 * manifest the README tells people to paste into Slack.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

export interface CommandHint {
  command: string;
  description: string;
  usageHint: string;
  /** Message shortcuts the app declares, offered in each message's menu. */
  shortcuts: { name: string; callbackId: string }[];
}

/** The manifest's first slash command, or a plain fallback when the file cannot be read. */
export async function readCommandHint(manifestPath: string, command: string): Promise<CommandHint> {
  try {
    const manifest = parse(await readFile(manifestPath, 'utf8')) as {
      features?: {
        slash_commands?: { command?: string; description?: string; usage_hint?: string }[];
        shortcuts?: { name?: string; type?: string; callback_id?: string }[];
      };
    };
    const entry = manifest.features?.slash_commands?.[0];
    return {
      command,
      description: entry?.description ?? '',
      usageHint: entry?.usage_hint ?? '',
      shortcuts: (manifest.features?.shortcuts ?? []).flatMap((sc) =>
        sc.type === 'message' && sc.name && sc.callback_id
          ? [{ name: sc.name, callbackId: sc.callback_id }]
          : [],
      ),
    };
  } catch {
    return { command, description: '', usageHint: '', shortcuts: [] };
  }
}
