/**
 * Free-text fields of the modals turned into engine values: container args
 * (split like a shell would, so a quoted argument keeps its spaces), ports and
 * comma-separated lists. Each parser says what is wrong in words for the user.
 */
import type { PortRequest } from '../../changes/requests/vessels.js';
import { isPortNumber, PORT_RANGE_WORDS } from '../../changes/requests/vocabulary.js';

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Splits on whitespace, honouring '…' and "…" quotes and backslash escapes (not inside '…'). */
export function splitArgs(text: string): Parsed<string[]> {
  const args: string[] = [];
  let current = '';
  let inArg = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) current += text.charAt(++i);
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inArg = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      current += text.charAt(++i);
      inArg = true;
    } else if (/\s/.test(ch)) {
      if (inArg) args.push(current);
      current = '';
      inArg = false;
    } else {
      current += ch;
      inArg = true;
    }
  }
  if (quote) return { ok: false, error: `a ${quote} quote is not closed; close it or remove it` };
  if (inArg) args.push(current);
  return { ok: true, value: args };
}

const PORT = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?):(\d{1,5})(?:\/(udp|tcp))?(?:\/(dynamic|passthrough))?$/i;

/** Parses "game:7777/UDP, query:27015/TCP/Passthrough" (protocol defaults to UDP, policy to Dynamic). */

export function parsePorts(text: string): Parsed<PortRequest[]> {
  const ports: PortRequest[] = [];
  for (const item of splitList(text)) {
    const m = PORT.exec(item);
    if (!m) {
      return {
        ok: false,
        error: `"${item}" is not a port: write name:port/protocol, e.g. game:7777/UDP (several separated by commas)`,
      };
    }
    const number = Number(m[3]);
    if (!isPortNumber(number)) {
      return {
        ok: false,
        error: `"${item}" is not a port: expected ${PORT_RANGE_WORDS}, e.g. game:7777/UDP`,
      };
    }
    const protocol = (m[4] ?? 'UDP').toUpperCase() as PortRequest['protocol'];
    const policy = (m[5] ?? 'dynamic').toLowerCase() === 'passthrough' ? 'Passthrough' : 'Dynamic';
    ports.push({ name: (m[1] ?? '').toLowerCase(), containerPort: number, protocol, policy });
  }
  return { ok: true, value: ports };
}

/** Comma-separated items, trimmed, empty ones dropped. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** `image:tag` split at the last colon; undefined when either side is empty. */
export function splitImageRef(ref: string): { image: string; tag: string } | undefined {
  const colon = ref.lastIndexOf(':');
  if (colon <= 0 || colon === ref.length - 1) return undefined;
  return { image: ref.slice(0, colon), tag: ref.slice(colon + 1) };
}
