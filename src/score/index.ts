/**
 * The scorers: pure functions, one metric per module, no I/O (definitions in docs/metrics.md).
 * Per-document scoring and aggregation are separate functions.
 */
export * from './extraction/index.js';
export * from './calibration/index.js';
export {
  compareSystems,
  createMicroF1Delta,
  pairByDocumentId,
  pairedBootstrap,
  signTest,
  wilcoxonSignedRank,
  holmAdjust,
  DEFAULT_TIE_TOLERANCE,
} from './stats/index.js';
export type {
  CompareSystemsOptions,
  SystemComparison,
  PairedValues,
  BootstrapOptions,
  BootstrapResult,
  WilcoxonResult,
  CountsLike,
} from './stats/index.js';
export {
  markdownSimilarity,
  scoreMarkdownPages,
  aggregateMarkdown,
  computeMicroSimilarity,
  createMicroSimilarityDelta,
  scoreWords,
  aggregateWords,
  headToHead,
  scoreMarkdownDrift,
  normalizeForSimilarity,
  SIMILARITY_NORMALIZATION,
} from './markdown/index.js';
export type {
  MarkdownSimilarity,
  MarkdownDocumentScore,
  MarkdownAggregate,
  MarkdownPageFigures,
  MarkdownScoreForAggregation,
  WordScore,
  WordAggregate,
  HeadToHeadResult,
} from './markdown/index.js';
export { scoreTables, aggregateTables, computeTeds, findTables } from './tables/index.js';
export type { TablesScore, TablePairScore, TablesAggregate, TedsResult } from './tables/index.js';
export {
  scorePageBlocks,
  pageBlockFigures,
  aggregateBlocks,
  splitOutputBlocks,
  splitTruthBlocks,
  scoreDocumentBlocks,
  BLOCK_EDIT_FIGURES,
  pageSum,
  createPageMeanStatistic,
  createPageMeanDelta,
  tableTedsSum,
  TABLE_TEDS_FIGURES,
} from './blocks/index.js';
export type {
  TruthBlock,
  PageBlocksScore,
  BlockMatchView,
  PageBlockFigures,
  BlockFigures,
  DocumentBlocks,
  BlockEditFigure,
  PageSum,
  TableTedsFigure,
} from './blocks/index.js';
export { scoreRegions, aggregateRegions, computeIoU } from './regions/index.js';
export type { RegionsScore, RegionCounts, ThresholdScore } from './regions/index.js';
export { latencyStats, summarizeLatency, computePercentile, PERCENTILE_METHOD } from './latency.js';
export type { LatencyStats, LatencySample, LatencyGroup } from './latency.js';
export type { EditCounts } from './markdown/index.js';
export { createMicroSimilarityStatistic, similarityFromCounts } from './markdown/index.js';
export {
  bootstrapP,
  compareSystemsMany,
  pairedBootstrapMany,
  createCountedSum,
  createMeanStatistic,
  quantileSorted,
} from './stats/index.js';
export type { ComparisonRequest, ResampleStatistic } from './stats/index.js';
export {
  adjustHeadlineFamilies,
  choosePrimaryMetric,
  fewestSignificantDocuments,
  smallestPossibleP,
} from './stats/index.js';
export type { BootstrapRequest, DecisionFamily } from './stats/index.js';
