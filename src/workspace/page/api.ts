/** The page's calls to the workspace (same origin, JSON). */
import type { PageState } from './types.js';

export interface Outcome {
  ok: boolean;
  error?: string;
  errors?: Record<string, string>;
  /** What the app offered for an external select (the `suggest` verb). */
  options?: { text: string; value: string }[];
}

/**
 * POSTs `body` to a workspace verb; network trouble comes back as an outcome too.
 * `keepalive` lets the request outlive the page (sent while it unloads).
 */
export async function post(
  verb: 'command' | 'action' | 'submit' | 'close' | 'suggest' | 'home' | 'shortcut',
  body: Record<string, unknown>,
  keepalive = false,
): Promise<Outcome> {
  try {
    const res = await fetch(`/workspace/${verb}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      keepalive,
    });
    return (await res.json()) as Outcome;
  } catch {
    return { ok: false, error: 'the workspace is not reachable (is npm start still running?)' };
  }
}

/** The viewer's state. */
export async function fetchState(user: string): Promise<PageState> {
  const res = await fetch(`/workspace/state?user=${encodeURIComponent(user)}`);
  return (await res.json()) as PageState;
}
