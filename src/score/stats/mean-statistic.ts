/**
 * The mean over the drawn documents as a bootstrap statistic. Integer values (exact matches 0/1, their paired
 * differences) sum exactly in any order, so for them the mean also comes from multiplicities and
 * `pairedBootstrapMany` reads one typed column instead of visiting every draw; other values keep the
 * draw-by-draw sum, whose rounding depends on the order of the draws.
 */
import type { ResampleStatistic } from './bootstrap.js';
import { createCountedSum } from './counted-sum.js';

export function createMeanStatistic(values: Float64Array): ResampleStatistic {
  const mean: ResampleStatistic = (indices) => {
    let sum = 0;
    for (let k = 0; k < indices.length; k++) sum += values[indices[k]!]!;
    return sum / indices.length;
  };
  const countedSum = createCountedSum(values);
  const n = values.length;
  return countedSum
    ? Object.assign(mean, { fromMultiplicities: (multiplicities: Uint32Array) => countedSum(multiplicities, 0) / n })
    : mean;
}
