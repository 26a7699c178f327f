/** Exact two-sided sign test (docs/metrics/comparison.md): wins vs losses under Binomial(n, ½), ties dropped beforehand. */
import { DocbenchError } from '../../errors.js';
import { checkUnit } from '../shared/check-metric.js';

/**
 * p = min(1, 2 · P(X ≤ min(wins, losses))), X ~ Binomial(wins + losses, ½). Lower p = stronger evidence that
 * one system wins more often. No wins and no losses → p = 1.
 * @example signTest(9, 1) // 22/1024 = 0.021484375
 */
export function signTest(wins: number, losses: number): number {
  if (!Number.isInteger(wins) || !Number.isInteger(losses) || wins < 0 || losses < 0) {
    throw new DocbenchError(
      'INPUT_INVALID',
      `signTest: wins (${wins}) and losses (${losses}) must be non-negative integers`,
    );
  }
  const n = wins + losses;
  if (n === 0) return 1;
  const k = Math.min(wins, losses);
  // Σ_{i≤k} C(n,i) / 2^n in log space: C(n,i) overflows doubles beyond n ≈ 1000.
  const logHalfPower = n * Math.log(0.5);
  let logChoose = 0;
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logChoose + logHalfPower);
  }
  return checkUnit('sign test p', Math.min(1, 2 * tail));
}
