/** Region fidelity of /split output: Hungarian matching on IoU, P/R/F1 at 0.5 and 0.75, mean IoU, character accuracy. */
export { scoreRegions, aggregateRegions, summarizeRegionCounts } from './score-regions.js';
export type {
  RegionsScore,
  RegionCounts,
  RegionScoreOptions,
  ThresholdScore,
  InvalidBox,
  RegionMatch,
} from './score-regions.js';
export { checkBox, computeIoU, POINTS_PER_INCH } from './box-geometry.js';
export type { BoxProblem } from './box-geometry.js';
export { normalizedArd, pageReadingOrder } from './reading-order.js';
export type { PageReadingOrder } from './reading-order.js';
