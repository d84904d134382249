/**
 * What a message names: an alert in an incident channel mentions a vessel or
 * an armada among other words. The words that could be resource names are
 * checked against what the API lists, in the order they appear, so the first
 * thing the message names is the one it is about.
 */
import type { Armada } from '../api-shapes/armada-resources.js';
import type { Vessel } from '../api-shapes/resources.js';

/** A vessel or armada a message names, and where it lives. */
export interface NamedResource {
  kind: 'vessel' | 'armada';
  environment: string;
  name: string;
}

/** Words of `text` that could be resource names (lower-case DNS labels), in order, once each. */
export function candidateNames(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?/g) ?? [];
  return [...new Set(words)];
}

/** The first of `words` naming a vessel (before an armada of the same name) in one of the listed environments. */
export function firstNamed(
  words: readonly string[],
  listed: readonly { environment: string; vessels: readonly Vessel[]; armadas: readonly Armada[] }[],
): NamedResource | undefined {
  for (const word of words) {
    for (const { environment, vessels } of listed) {
      if (vessels.some((v) => v.metadata.name === word)) return { kind: 'vessel', environment, name: word };
    }
    for (const { environment, armadas } of listed) {
      if (armadas.some((a) => a.metadata.name === word)) return { kind: 'armada', environment, name: word };
    }
  }
  return undefined;
}
