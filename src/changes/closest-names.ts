/**
 * "Did you mean" for mistyped command words, flags and resource names: Damerau-Levenshtein
 * (optimal string alignment) distance, so a swapped pair like `shwo` counts as
 * one slip, plus prefix matches for abbreviations like `form`.
 */

// Bound once: a global looked up in the inner loop is slow where the global object is not V8's own
// (Jest runs each test file in a vm context, where every global read goes through an interceptor).
const { min } = Math;

/** Edit distance counting insertions, deletions, substitutions and adjacent swaps as one step each. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] as number;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = min(best, at(i - 2, j - 2) + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}

// Words longer than this are not typos of a command word; skipping them keeps
// the distance table small whatever a user pastes.
const MAX_WORD = 40;

/**
 * The candidates `word` most plausibly meant, best first: those within edit
 * distance 2 (1 for words of three letters or fewer), and those `word` is a
 * prefix of (at least two letters). Compared case-insensitively.
 */
export function closestWords(word: string, candidates: readonly string[]): string[] {
  const w = word.toLowerCase();
  if (w.length === 0 || w.length > MAX_WORD) return [];
  const limit = w.length <= 3 ? 1 : 2;
  const scored: { candidate: string; score: number }[] = [];
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    if (c === w) continue;
    // The distance is at least the difference in length: past the limit, the table need not be filled.
    const distance = Math.abs(w.length - c.length) > limit ? limit + 1 : editDistance(w, c);
    if (distance <= limit) scored.push({ candidate, score: distance });
    else if (w.length >= 2 && c.startsWith(w)) scored.push({ candidate, score: limit + 1 });
  }
  scored.sort((x, y) => x.score - y.score);
  return scored.map((s) => s.candidate);
}
