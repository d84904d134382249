/**
 * The live secrets of one client (static token, password, every access and
 * refresh token it has been issued), so errors and log lines can be redacted
 * against exactly what this client could leak.
 */
import { redact } from '../runtime/logger.js';

/** Old tokens stay sensitive for a while after renewal; keep a bounded history of them. */
const MAX_ROTATING = 32;

export interface SecretRegistry {
  /** Registers issued tokens (empty values are ignored); only the newest few are kept. */
  add(...secrets: (string | undefined)[]): void;
  /** Every registered secret, newest last. */
  list(): readonly string[];
  /** `text` with every registered secret and any `Bearer ...` value replaced. */
  redact(text: string): string;
}

/**
 * A registry whose `pinned` secrets (static token, password) are never dropped;
 * each secret is also registered in its form-encoded spelling, because the
 * token endpoint receives them form-encoded and a server echoing the form must
 * not leak them either.
 */
export function createSecretRegistry(...pinned: (string | undefined)[]): SecretRegistry {
  const fixed = spellings(pinned);
  let rotating: string[] = [];
  const all = () => [...fixed, ...rotating];
  return {
    add(...values) {
      for (const value of spellings(values)) {
        if (!fixed.includes(value) && !rotating.includes(value)) rotating.push(value);
      }
      if (rotating.length > MAX_ROTATING) rotating = rotating.slice(-MAX_ROTATING);
    },
    list: all,
    // Longest first, so a secret that contains another is replaced whole.
    redact: (text) =>
      redact(
        text,
        all().sort((a, b) => b.length - a.length),
      ),
  };
}

function spellings(values: readonly (string | undefined)[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    if (!value) continue;
    out.push(value);
    const encoded = new URLSearchParams({ v: value }).toString().slice(2);
    if (encoded !== value) out.push(encoded);
  }
  return out;
}
