/**
 * Word precision and recall on bags (multisets) of words (docs/metrics/markdown.md); "% missing text" = 1 − recall.
 *
 * A word is a maximal run of letters, combining marks and digits (`[\p{L}\p{M}\p{N}]+`) after lowercasing
 * and NFC. Marks are kept inside words because scripts such as Devanagari or Thai write vowels as marks with
 * no precomposed form: splitting there would cut one word into pieces. Everything else (spaces, punctuation,
 * markdown syntax, `_`) separates words, so `**Total:**` and `total` are the same word.
 * Order is ignored: a bag measures what text came back, the edit-distance similarity measures its order.
 */
import { checkUnit } from '../shared/check-metric.js';
import { computeMatchRates } from '../shared/match-rates.js';

/** One document's word overlap. Higher precision / recall / F1 is better; lower `missingText` is better. */
export interface WordScore {
  /** matched / predicted words. */
  precision: number;
  /** matched / truth words. */
  recall: number;
  f1: number;
  /** Share of the truth's words absent from the prediction: 1 − recall. */
  missingText: number;
  /** Σ over distinct words of min(count in prediction, count in truth). */
  matched: number;
  predictedWords: number;
  truthWords: number;
  /** Neither side has a word: precision = recall = F1 = 1, reported separately. */
  bothEmpty: boolean;
}

/** The named steps of {@link tokenizeWords}, in order. */
export const WORD_NORMALIZATION = ['lowercase', 'nfc', 'split-on-non-letter-mark-digit'] as const;

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** The words of `text`, lowercased, in order. */
export function tokenizeWords(text: string): string[] {
  return text.toLowerCase().normalize('NFC').match(WORD) ?? [];
}

/**
 * Scores the words of `prediction` against those of `truth`. Pages may be passed as arrays (joined by a
 * newline: no word spans a page break). `null` is a failed call: no words.
 */
export function scoreWords(
  prediction: string | readonly string[] | null,
  truth: string | readonly string[],
): WordScore {
  const truthBag = countWords(joinPages(truth));
  const predictedBag = countWords(prediction === null ? '' : joinPages(prediction));
  let matched = 0;
  for (const [word, count] of predictedBag.counts) matched += Math.min(count, truthBag.counts.get(word) ?? 0);
  return buildWordScore(matched, predictedBag.total, truthBag.total, 'word');
}

/** Micro precision / recall over documents (counts summed). `null` scores when there is no document. */
export interface WordAggregate {
  precision: number | null;
  recall: number | null;
  f1: number | null;
  missingText: number | null;
  matched: number;
  predictedWords: number;
  truthWords: number;
  documents: number;
}

/** Sums the counts of per-document word scores into micro precision / recall / F1. */
export function aggregateWords(scores: readonly WordScore[]): WordAggregate {
  const matched = scores.reduce((n, s) => n + s.matched, 0);
  const predictedWords = scores.reduce((n, s) => n + s.predictedWords, 0);
  const truthWords = scores.reduce((n, s) => n + s.truthWords, 0);
  if (scores.length === 0) {
    return {
      precision: null,
      recall: null,
      f1: null,
      missingText: null,
      matched,
      predictedWords,
      truthWords,
      documents: 0,
    };
  }
  const score = buildWordScore(matched, predictedWords, truthWords, 'word (micro)');
  return {
    precision: score.precision,
    recall: score.recall,
    f1: score.f1,
    missingText: score.missingText,
    matched,
    predictedWords,
    truthWords,
    documents: scores.length,
  };
}

function joinPages(text: string | readonly string[]): string {
  return typeof text === 'string' ? text : text.join('\n');
}

function countWords(text: string): { counts: Map<string, number>; total: number } {
  const counts = new Map<string, number>();
  const words = tokenizeWords(text);
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  return { counts, total: words.length };
}

/** Both sides empty → 1 (nothing to find, nothing invented); any other 0/0 → 0. */
function buildWordScore(matched: number, predicted: number, truth: number, metric: string): WordScore {
  const { precision, recall, f1, bothEmpty } = computeMatchRates(
    matched,
    predicted,
    truth,
    (figure) => `${metric} ${figure}`,
  );
  return {
    precision,
    recall,
    f1,
    missingText: checkUnit(`${metric} missing text`, 1 - recall),
    matched,
    predictedWords: predicted,
    truthWords: truth,
    bothEmpty,
  };
}
