/**
 * Paired bootstrap over documents (docs/metrics/comparison.md): resample document indices with replacement, recompute the
 * aggregate on each resample (e.g. micro F1 from summed counts, not a mean of per-document F1s), and take the
 * percentile interval.
 */
import { DocbenchError } from '../../errors.js';
import { checkMetric } from '../shared/check-metric.js';
import { computePercentile } from '../shared/percentile.js';
import { createRandom } from '../../random.js';

/** @default 10 000 resamples. */
export const DEFAULT_RESAMPLES = 10_000;
/** @default seed 1: the same inputs give the same interval on every machine. */
export const DEFAULT_SEED = 1;

/** A statistic of a resample: receives the drawn document indices (reused buffer — do not keep it). */
export type ResampleStatistic = (indices: Uint32Array) => number;

/**
 * A statistic that depends only on how many times each document was drawn — a sum of integer counts, so the
 * order of the draws cannot change it — and can be evaluated from those multiplicities (`multiplicities[i]` =
 * times document i was drawn; reused buffer). `fromMultiplicities` must return exactly what the statistic
 * returns for any index order with those multiplicities: `pairedBootstrapMany` uses it to skip visiting draws.
 */
export type CountedResampleStatistic = ResampleStatistic & {
  fromMultiplicities: (multiplicities: Uint32Array) => number;
};

/** Whether `statistic` can be evaluated from multiplicities. */
export function isCountedStatistic(statistic: ResampleStatistic): statistic is CountedResampleStatistic {
  return typeof (statistic as Partial<CountedResampleStatistic>).fromMultiplicities === 'function';
}

export interface BootstrapOptions {
  /** @default 1 */
  seed?: number;
  /** @default 10000 */
  resamples?: number;
  /** Central interval mass. @default 0.95 */
  level?: number;
}

export interface BootstrapResult {
  /** The statistic on the original sample (indices 0…n−1). */
  estimate: number;
  /** Percentile interval [lo, hi] at `level`, quantiles by linear interpolation (Hyndman–Fan type 7). */
  interval: [number, number];
  /** Standard deviation of the resampled statistics. */
  standardError: number;
  seed: number;
  resamples: number;
  level: number;
}

/**
 * Bootstraps `statistic` over `n` paired documents. Reproducible: the same seed, n and statistic give the same
 * result; the order of documents matters, so pair them in a fixed order (e.g. sorted ids).
 * One index buffer is reused across resamples, so memory stays O(n + resamples).
 */
export function pairedBootstrap(
  n: number,
  statistic: ResampleStatistic,
  options: BootstrapOptions = {},
): BootstrapResult {
  const seed = options.seed ?? DEFAULT_SEED;
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(n) || n < 1)
    throw new DocbenchError('INPUT_INVALID', `pairedBootstrap: need at least one document, got ${n}`);
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new DocbenchError('INPUT_INVALID', `pairedBootstrap: resamples must be a positive integer, got ${resamples}`);
  if (!(level > 0 && level < 1))
    throw new DocbenchError('INPUT_INVALID', `pairedBootstrap: level must be in (0, 1), got ${level}`);
  const indices = new Uint32Array(n);
  for (let i = 0; i < n; i++) indices[i] = i;
  const estimate = checkMetric('bootstrap estimate', statistic(indices));
  const random = createRandom(seed);
  const values = new Float64Array(resamples);
  let sum = 0;
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) indices[i] = Math.floor(random() * n);
    const value = statistic(indices);
    values[r] = value;
    sum += value;
  }
  return summarizeResamples(estimate, values, sum, seed, level);
}

/**
 * The interval and standard error from the resampled statistics (`values`, sorted in place; `sum` their sum in
 * resample order). Shared with `pairedBootstrapMany`, so both report the same numbers from the same values.
 */
export function summarizeResamples(
  estimate: number,
  values: Float64Array,
  sum: number,
  seed: number,
  level: number,
): BootstrapResult {
  const resamples = values.length;
  checkMetric('bootstrap resample', sum);
  const mean = sum / resamples;
  let squares = 0;
  for (let r = 0; r < resamples; r++) squares += (values[r]! - mean) ** 2;
  values.sort();
  const tail = (1 - level) / 2;
  return {
    estimate,
    interval: [
      checkMetric('bootstrap lo', computePercentile(values, tail)),
      checkMetric('bootstrap hi', computePercentile(values, 1 - tail)),
    ],
    standardError: checkMetric('bootstrap standard error', Math.sqrt(squares / Math.max(1, resamples - 1)), { min: 0 }),
    seed,
    resamples,
    level,
  };
}
