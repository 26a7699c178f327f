/** Markdown fidelity: edit-distance similarity (normalised and raw), per page and aggregated, words, head-to-head. */
export { markdownSimilarity, scoreTextPair } from './similarity.js';
export type { MarkdownSimilarity, SimilarityScore } from './similarity.js';
export { normalizeForSimilarity, SIMILARITY_NORMALIZATION } from './normalize-text.js';
export { levenshteinCodePoints, countCodePoints } from '../shared/code-point-levenshtein.js';
export type { CodePointDistance } from '../shared/code-point-levenshtein.js';
export { scoreMarkdownPages } from './pages.js';
export type { MarkdownPageScore, MarkdownPageStatus, MarkdownDocumentScore, MarkdownDocumentFigures } from './pages.js';
export {
  aggregateMarkdown,
  computeMicroSimilarity,
  createMicroSimilarityDelta,
  createMicroSimilarityStatistic,
  similarityFromCounts,
} from './aggregate.js';
export type {
  MarkdownAggregate,
  MarkdownAggregateFigures,
  MarkdownPageFigures,
  MarkdownScoreForAggregation,
  EditCounts,
} from './aggregate.js';
export { scoreWords, aggregateWords, tokenizeWords, WORD_NORMALIZATION } from './words.js';
export type { WordScore, WordAggregate } from './words.js';
export { headToHead, scoreMarkdownDrift } from './head-to-head.js';
export type { HeadToHeadOptions, HeadToHeadOutcome, HeadToHeadResult } from './head-to-head.js';
