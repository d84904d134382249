/** The page's calls to the workspace (same origin, JSON). */

type Json = Record<string, any>;

export interface Outcome {
  ok: boolean;
  error?: string;
  errors?: Record<string, string>;
}

/** POSTs `body` to a workspace verb; network trouble comes back as an outcome too. */
export async function post(verb: 'command' | 'action' | 'submit' | 'close', body: Json): Promise<Outcome> {
  try {
    const res = await fetch(`/workspace/${verb}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Outcome;
  } catch {
    return { ok: false, error: 'the workspace is not reachable (is npm start still running?)' };
  }
}

/** The viewer's state. */
export async function fetchState(user: string): Promise<Json> {
  const res = await fetch(`/workspace/state?user=${encodeURIComponent(user)}`);
  return (await res.json()) as Json;
}
