/** Holm–Bonferroni step-down correction across many metrics (docs/metrics/comparison.md). */
import { DocbenchError } from '../../errors.js';
import { checkUnit } from '../shared/check-metric.js';

/**
 * Adjusted p-values, in the input order: sort ascending, p̃₍ᵢ₎ = max_{j≤i} min(1, (m − j + 1)·p₍ⱼ₎).
 * Reject at level α where p̃ ≤ α; controls the family-wise error rate. Lower is stronger evidence.
 * @example holmAdjust([0.01, 0.04, 0.03, 0.005]) // [0.03, 0.06, 0.06, 0.02]
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  for (const p of pValues) {
    if (!(p >= 0 && p <= 1))
      throw new DocbenchError('INPUT_INVALID', `holmAdjust: p-value ${String(p)} is not in [0, 1]`);
  }
  const m = pValues.length;
  const order = [...pValues.keys()].sort((i, j) => pValues[i]! - pValues[j]! || i - j);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[index]!));
    adjusted[index] = checkUnit('holm-adjusted p', running);
  });
  return adjusted;
}
