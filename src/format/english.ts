/**
 * Small English helpers for every part that writes words (policy, core and
 * Slack renderers), so counts and articles read right: "1 approval",
 * "2 approvals", "a branch", "an image". Nouns whose plural is not a plain "s"
 * are listed below or named at the call (`count(n, 'person', 'people')`).
 */

// Nouns the bot counts or names whose plural or singular is not the plain "s" rule.
const IRREGULAR: Record<string, string> = {
  branch: 'branches',
  strategy: 'strategies',
  match: 'matches',
  entry: 'entries',
};

const SINGULAR: Record<string, string> = Object.fromEntries(
  Object.entries(IRREGULAR).map(([s, p]) => [p, s]),
);

/** The plural of `word` ("branch" → "branches", "image" → "images"). */
export function pluralOf(word: string): string {
  return IRREGULAR[word] ?? `${word}s`;
}

/** The singular of a plural noun ("branches" → "branch", "images" → "image"); unknown words lose one "s". */
export function singularOf(word: string): string {
  return SINGULAR[word] ?? word.replace(/s$/, '');
}

/** `word` in the number `n` calls for, without the number ("approval", "approvals"). */
export function noun(n: number, word: string, pluralForm = pluralOf(word)): string {
  return n === 1 ? word : pluralForm;
}

/** `n` and the noun in the right number: "1 approval", "0 approvals", "2 branches". */
export function count(n: number, word: string, pluralForm?: string): string {
  return `${n} ${noun(n, word, pluralForm)}`;
}

// Words starting with a vowel letter but a consonant sound, and the reverse.
const CONSONANT_SOUND = /^(uni|use|usu|eu|one|once)/i;
const VOWEL_SOUND = /^(hour|honest|honou?r)/i;

/** "a" or "an" before `word`, by its sound: "an image", "a vessel", "a unique name", "an hour". */
export function article(word: string): 'a' | 'an' {
  const w = word.trim().replace(/^[`*_"'(]+/, '');
  if (VOWEL_SOUND.test(w)) return 'an';
  if (CONSONANT_SOUND.test(w)) return 'a';
  return /^[aeiou]/i.test(w) ? 'an' : 'a';
}

/** `word` with its article: "an image", "a region". */
export function withArticle(word: string): string {
  return `${article(word)} ${word}`;
}

/** How often something was done again: "once", "twice", "3 times". */
export function rereads(n: number): string {
  if (n === 1) return 'once';
  if (n === 2) return 'twice';
  return `${n} times`;
}
