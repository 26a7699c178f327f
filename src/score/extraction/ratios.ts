/** Precision, recall and F1 from counts, with the empty-document convention of docs/metrics/extraction.md. */
import { checkMetric, checkUnit } from '../shared/check-metric.js';
import type { Counts, PrfScore } from './types.js';

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
    f1: checkUnit(`${label} f1`, (2 * tp) / (2 * tp + fp + fn)),
  };
}
