/**
 * What an image change means beyond "old → new": going back to an older
 * build, or putting an image of another name into a container (a sidecar
 * image into the game server container). Both are legitimate and both are
 * easy to do by mistake, so previews warn about them.
 */

/** `game-server:1.2.0` → { image: 'game-server', tag: '1.2.0' }; undefined for what is not `image:tag`. */
export function splitRef(ref: string): { image: string; tag: string } | undefined {
  const at = ref.lastIndexOf(':');
  if (at <= 0 || at === ref.length - 1) return undefined;
  return { image: ref.slice(0, at), tag: ref.slice(at + 1) };
}

// Numeric parts compare as numbers ("1.10.0" > "1.9.0"); anything else leaves the order unknown.
function versionParts(tag: string): number[] | undefined {
  const m = /^v?(\d+(?:\.\d+)*)$/.exec(tag);
  return m?.[1]?.split('.').map(Number);
}

/** -1, 0 or 1 when both tags are dotted numbers (with an optional `v`), else undefined. */
export function compareTags(a: string, b: string): number | undefined {
  const x = versionParts(a);
  const y = versionParts(b);
  if (!x || !y) return undefined;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** The warnings for replacing `before` (`image:tag`, or an internal name) with `after` (`image:tag`). */
export function imageChangeWarnings(before: string, after: string, where: string): string[] {
  const was = splitRef(before);
  const next = splitRef(after);
  if (!was || !next) return [];
  if (was.image !== next.image) {
    return [
      `${where} runs ${was.image} now, not ${next.image}: rolling out ${after} puts an image of another name into it. Check that it is the right container.`,
    ];
  }
  return compareTags(next.tag, was.tag) === -1
    ? [`This is a downgrade: ${where} runs ${before}, newer than ${after}.`]
    : [];
}
