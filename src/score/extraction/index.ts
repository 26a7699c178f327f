/** Extraction scoring (docs/metrics/extraction.md): Field-F1 per document, aggregation, ANLS*. */
export { scoreExtraction, LONG_TEXT_MIN_LENGTH } from './score-document.js';
export { aggregateExtraction } from './aggregate.js';
export type { ExtractionAggregate, ItemAggregate, MacroScore, PathAggregate } from './aggregate.js';
export { anlsStar, anlsLeaf, ANLS_THRESHOLD } from './anls.js';
/** Levenshtein distance in code points, as a number (the package root exports it under this name). */
export { countCodePointEdits as levenshteinCodePoints } from '../shared/code-point-levenshtein.js';
export { computePrf, f1FromSums, microF1, sumCounts, sumMisses, toCounts } from './ratios.js';
export { collapseFieldPath, countFieldPaths, type PathCounts } from './path-counts.js';
export { inferComparatorSpec, splitFieldName } from './resolve-comparator.js';
export type { ComparatorSource, ValueType } from './resolve-comparator.js';
export type {
  Counts,
  MissCounts,
  ExtractionScore,
  FieldError,
  FieldResult,
  ItemCounts,
  NormalizationRecord,
  PrfScore,
  ScoreExtractionOptions,
  Verdict,
} from './types.js';
