/**
 * Markdown fidelity of one text against its truth (docs/metrics/markdown.md): similarity = 1 − NED with
 * NED = Lev(n(p), n(t)) / max(|n(p)|, |n(t)|), in code points; and the same on the raw texts.
 * Higher similarity is better; NED is its complement (lower is better).
 */
import { checkMetric, checkUnit } from '../shared/check-metric.js';
import { levenshteinCodePoints } from '../shared/code-point-levenshtein.js';
import { normalizeForSimilarity, SIMILARITY_NORMALIZATION } from './normalize-text.js';

/** Edit-distance similarity of one pair of texts. Lengths and edits are in code points. */
export interface SimilarityScore {
  /** 1 − NED, in [0, 1]; higher is better. Both texts empty → 1 (see `bothEmpty`); one empty → 0. */
  similarity: number;
  /** Normalised edit distance Lev / max(length), in [0, 1]; lower is better. */
  ned: number;
  /** Levenshtein distance (insert, delete, substitute: 1 each). */
  edits: number;
  /** max(predictionLength, truthLength): the denominator of NED and of micro aggregates. */
  length: number;
  predictionLength: number;
  truthLength: number;
  /** Both texts empty (after normalisation, for the normalised score): similarity 1, reported separately. */
  bothEmpty: boolean;
}

/** {@link markdownSimilarity}: the normalised score (headline), the steps applied, and the raw score. */
export interface MarkdownSimilarity extends SimilarityScore {
  /** The normalisation steps behind the headline score, in order. */
  normalization: readonly string[];
  /** The same score on the texts exactly as given (no NFC, nothing deleted): layout-sensitive. */
  raw: SimilarityScore;
}

/** Scores `prediction` against `truth` (docs/metrics/markdown.md). Symmetric in its two arguments. */
export function markdownSimilarity(prediction: string, truth: string): MarkdownSimilarity {
  const normalized = scoreTextPair(
    normalizeForSimilarity(prediction),
    normalizeForSimilarity(truth),
    'markdown similarity',
  );
  return {
    ...normalized,
    normalization: SIMILARITY_NORMALIZATION,
    raw: scoreTextPair(prediction, truth, 'markdown raw similarity'),
  };
}

/** Edit-distance similarity of two texts taken as they are; `metric` names the score in boundary errors. */
export function scoreTextPair(prediction: string, truth: string, metric: string): SimilarityScore {
  const { distance, lengthA, lengthB } = levenshteinCodePoints(prediction, truth);
  const length = Math.max(lengthA, lengthB);
  const ned = length === 0 ? 0 : distance / length;
  return {
    similarity: checkUnit(metric, 1 - ned),
    ned: checkUnit(`${metric} (NED)`, ned),
    edits: checkMetric(`${metric} (edits)`, distance, { min: 0 }),
    length,
    predictionLength: lengthA,
    truthLength: lengthB,
    bothEmpty: length === 0,
  };
}
