/**
 * The value of a "Cancel them and end" / "Keep them and end" button, read
 * back like any input: Slack echoes it, so it is parsed with a schema.
 */
import { z } from 'zod';
import type { ReleaseEndValue } from '../ids.js';

const Schema = z.object({
  release: z.string().min(1).max(200),
  version: z.number().int().nonnegative(),
  digest: z.string().regex(/^[0-9a-f]{1,64}$/),
});

/** The button's value, or undefined when it is not one the bot wrote. */
export function readEndValue(raw: string | undefined): ReleaseEndValue | undefined {
  if (!raw) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const parsed = Schema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
