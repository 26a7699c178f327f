/**
 * Precision, recall and F1 of a one-to-one matching (bag-of-words counts, region boxes), with the empty
 * convention of docs/metrics/markdown.md and docs/metrics/regions.md. (Field-F1 has its own formulation from tp/fp/fn: extraction/ratios.ts.)
 */
import { checkUnit } from './check-metric.js';

/** {@link computeMatchRates}. All in [0, 1]; higher is better. */
export interface MatchRates {
  precision: number;
  recall: number;
  f1: number;
  /** Nothing predicted and nothing to find: all three are 1. */
  bothEmpty: boolean;
}

/**
 * P = matched / predicted, R = matched / truth, F1 their harmonic mean. Both sides empty → 1 (nothing to find,
 * nothing invented); any other 0/0 → 0.
 * @param name the metric name of each figure, for the boundary check's error.
 */
export function computeMatchRates(
  matched: number,
  predicted: number,
  truth: number,
  name: (figure: 'precision' | 'recall' | 'F1') => string,
): MatchRates {
  const bothEmpty = predicted === 0 && truth === 0;
  const precision = bothEmpty ? 1 : predicted === 0 ? 0 : matched / predicted;
  const recall = bothEmpty ? 1 : truth === 0 ? 0 : matched / truth;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return {
    precision: checkUnit(name('precision'), precision),
    recall: checkUnit(name('recall'), recall),
    f1: checkUnit(name('F1'), f1),
    bothEmpty,
  };
}
