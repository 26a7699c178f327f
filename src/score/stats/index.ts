/** Statistics for comparing two systems or runs (docs/metrics/comparison.md), and the metric boundary check. */
export {
  bootstrapP,
  compareSystems,
  compareSystemsMany,
  createMicroF1Delta,
  pairByDocumentId,
  DEFAULT_TIE_TOLERANCE,
} from './compare-systems.js';
export type {
  CompareSystemsOptions,
  ComparisonRequest,
  CountsLike,
  PairedValues,
  SystemComparison,
} from './compare-systems.js';
export { pairedBootstrap, isCountedStatistic, DEFAULT_RESAMPLES, DEFAULT_SEED } from './bootstrap.js';
export { pairedBootstrapMany } from './bootstrap-many.js';
export { createCountedSum } from './counted-sum.js';
export { createMeanStatistic } from './mean-statistic.js';
export type { CountedSum } from './counted-sum.js';
export type { BootstrapRequest } from './bootstrap-many.js';
/** Hyndman–Fan type 7 quantile of sorted values (src/gate uses it under this name). */
export { computePercentile as quantileSorted } from '../shared/percentile.js';
export type { BootstrapOptions, BootstrapResult, CountedResampleStatistic, ResampleStatistic } from './bootstrap.js';
export { signTest } from './sign-test.js';
export { wilcoxonSignedRank, WILCOXON_EXACT_MAX_N } from './wilcoxon.js';
export type { WilcoxonResult } from './wilcoxon.js';
export { holmAdjust } from './holm.js';
export {
  adjustHeadlineFamilies,
  choosePrimaryMetric,
  fewestSignificantDocuments,
  smallestPossibleP,
} from './decision.js';
export type { DecisionFamily } from './decision.js';
export { createRandom } from '../../random.js';
export { erfc, twoSidedNormalP } from './normal.js';
export { checkMetric, checkUnit } from '../shared/check-metric.js';
export type { MetricRange } from '../shared/check-metric.js';
