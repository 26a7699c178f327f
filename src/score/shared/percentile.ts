/**
 * The one percentile (quantile) of the scorers: latency summaries and paired-bootstrap intervals both use it,
 * so every percentile docbench prints is computed, and named, the same way.
 */
import { DocbenchError } from '../../errors.js';

/**
 * The percentile method: Hyndman & Fan (1996) type 7, linear interpolation between closest ranks, rank
 * h = (n − 1)·p on the sorted values — R's and NumPy's default, Excel's PERCENTILE.INC. With one value every
 * percentile is that value.
 */
export const PERCENTILE_METHOD =
  'Hyndman-Fan type 7 (linear interpolation between closest ranks; R and NumPy default, Excel PERCENTILE.INC)';

/** The p-th quantile (p in [0, 1]) of ascending `sorted` values, Hyndman–Fan type 7. */
export function computePercentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) throw new DocbenchError('INTERNAL', 'computePercentile: no values');
  const rank = (sorted.length - 1) * p;
  const lower = Math.floor(rank);
  const upper = Math.min(lower + 1, sorted.length - 1);
  const low = sorted[lower]!;
  return low + (rank - lower) * (sorted[upper]! - low);
}
