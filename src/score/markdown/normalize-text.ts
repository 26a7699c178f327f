/**
 * The text normalisation of docs/metrics/markdown.md (OmniDocBench's): Unicode NFC, then delete every character that is
 * not a letter, a digit or an underscore. Case is kept. Both steps are single linear native passes, so the
 * normalisation costs a small fraction of the Levenshtein call that follows (see bench/cases/score-markdown.ts).
 */

/** The ordered, named steps applied by {@link normalizeForSimilarity}, recorded with every result. */
export const SIMILARITY_NORMALIZATION = ['nfc', 'keep-letters-digits-underscore'] as const;

/**
 * `\p{L}` letters, `\p{N}` digits (all numeric categories: Nd, Nl, No) and `_`. Combining marks (`\p{M}`)
 * are deleted, as the METRICS definition says: after NFC most accents are inside precomposed letters.
 */
const NOT_WORD_CHARACTER = /[^\p{L}\p{N}_]/gu;

/** n() of docs/metrics/markdown.md. */
export function normalizeForSimilarity(text: string): string {
  return text.normalize('NFC').replace(NOT_WORD_CHARACTER, '');
}
