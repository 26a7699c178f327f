/**
 * Precision, recall and F1 from counts, with the empty-document convention of docs/metrics/extraction.md: the one
 * place the formula lives. Every figure built from field counts — a document's score, the micro aggregate, a
 * field path's, the bootstrap's resampled deltas, `docbench diff` — goes through `f1FromSums` or `computePrf`,
 * and sums counts with `sumCounts`.
 */
import { checkMetric, checkUnit } from '../shared/check-metric.js';
import type { PathCounts } from './path-counts.js';
import type { Counts, MissCounts, PrfScore } from './types.js';

/**
 * F1 = 2tp / (2tp + fp + fn), given as tp and errors = fp + fn (what a resample sums); 1 when nothing was
 * counted (nothing to find, nothing invented). Unchecked: callers on hot paths pass sums of checked counts.
 */
export function f1FromSums(tp: number, errors: number): number {
  return tp + errors === 0 ? 1 : (2 * tp) / (2 * tp + errors);
}

/** Micro F1 of counts summed over documents (or paths). */
export function microF1(rows: readonly Counts[]): number {
  const total = sumCounts(rows);
  return f1FromSums(total.tp, total.fp + total.fn);
}

/** tp, fp and fn summed. */
export function sumCounts(rows: readonly Counts[]): Counts {
  const total = { tp: 0, fp: 0, fn: 0 };
  for (const row of rows) {
    total.tp += row.tp;
    total.fp += row.fp;
    total.fn += row.fn;
  }
  return total;
}

/** A field path's counts in one document as `Counts`; a path the document lacks counts nothing. */
export function toCounts(counts: PathCounts | undefined): Counts {
  return counts ? { tp: counts[0], fp: counts[1], fn: counts[2] } : { tp: 0, fp: 0, fn: 0 };
}

/** Misses by where the truth value was (docs/metrics/extraction.md "Reading or extraction"), summed. */
export function sumMisses(rows: readonly (MissCounts | null)[]): MissCounts | null {
  let total: MissCounts | null = null;
  for (const row of rows) {
    if (row === null) continue;
    total ??= { not_in_text: 0, in_text: 0 };
    total.not_in_text += row.not_in_text;
    total.in_text += row.in_text;
  }
  return total;
}

/**
 * P = tp/(tp+fp), R = tp/(tp+fn), F1 = 2tp/(2tp+fp+fn). When tp = fp = fn = 0 (truth `{}`, prediction `{}`)
 * all three are 1: nothing to find, nothing invented. Otherwise a 0/0 ratio is 0 (nothing predicted → P = 0;
 * only hallucinations → R = 0), which keeps F1 equal to the harmonic mean of P and R.
 * @param label prefixes the metric name in a SCORE_INVALID error, e.g. "extraction strict".
 */
export function computePrf(counts: Counts, label = 'extraction'): PrfScore {
  const { tp, fp, fn } = counts;
  for (const [name, value] of Object.entries({ tp, fp, fn })) checkMetric(`${label} ${name}`, value, { min: 0 });
  if (tp + fp + fn === 0) return { tp, fp, fn, precision: 1, recall: 1, f1: 1 };
  return {
    tp,
    fp,
    fn,
    precision: checkUnit(`${label} precision`, tp + fp === 0 ? 0 : tp / (tp + fp)),
    recall: checkUnit(`${label} recall`, tp + fn === 0 ? 0 : tp / (tp + fn)),
    f1: checkUnit(`${label} f1`, f1FromSums(tp, fp + fn)),
  };
}
