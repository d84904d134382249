/**
 * Deterministic randomness: a seeded PRNG so fault shares, uids and issued
 * tokens repeat from run to run unless a test injects its own source.
 */

/** mulberry32: a tiny, well-distributed 32-bit PRNG returning values in [0, 1). */
export function seededRandom(seed = 0x5eed): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` lowercase hex digits drawn from `random`. */
export function randomHex(random: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += Math.floor(random() * 16).toString(16);
  return out;
}

/** A UUID-shaped id (version 4 layout) drawn from `random`. */
export function randomUuid(random: () => number): string {
  const hex = randomHex(random, 32);
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
