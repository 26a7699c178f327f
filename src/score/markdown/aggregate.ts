/**
 * Markdown fidelity across documents (docs/metrics/markdown.md): micro over every page of every document (headline),
 * macro as the mean over pages, and the mean of per-document micro scores. Per-document scoring is
 * {@link scoreMarkdownPages}; this only adds up.
 */
import { checkOptionalUnit } from '../shared/check-metric.js';
import type { MarkdownDocumentFigures, MarkdownDocumentScore } from './pages.js';
import type { SimilarityScore } from './similarity.js';
import { createCountedSum, type CountedSum } from '../stats/counted-sum.js';

/** One variant (normalised or raw) of {@link MarkdownAggregate}. `null` when there is no document. */
export interface MarkdownAggregateFigures {
  /** Headline: 1 − Σedits / Σlength over all pages of all documents. Higher is better. */
  micro: number | null;
  /** Mean page similarity over all pages that are not both empty. */
  macro: number | null;
  /** Mean of the per-document micro similarities. */
  documentMean: number | null;
  edits: number;
  length: number;
  /** Pages empty on both sides: similarity 1, left out of `macro`, reported here. */
  bothEmptyPages: number;
}

/** {@link aggregateMarkdown}. */
export interface MarkdownAggregate extends MarkdownAggregateFigures {
  raw: MarkdownAggregateFigures;
  documents: number;
  pages: number;
  /** Documents whose call failed: scored 0 on every page, counted here. */
  failedDocuments: number;
  missingPages: number;
  extraPages: number;
}

/** What aggregation reads of one page's score (normalised and raw). */
export type MarkdownPageFigures = Pick<SimilarityScore, 'similarity' | 'bothEmpty'> & {
  raw: Pick<SimilarityScore, 'similarity' | 'bothEmpty'>;
};

/** What aggregation reads of one document's score: its figures and its pages' (a run keeps this per document). */
export type MarkdownScoreForAggregation = Omit<MarkdownDocumentScore, 'pages' | 'normalization'> & {
  pages: MarkdownPageFigures[];
};

/** Aggregates per-document scores. */
export function aggregateMarkdown(documents: readonly MarkdownScoreForAggregation[]): MarkdownAggregate {
  const allPages = documents.flatMap((d) => d.pages);
  const anyMissing = documents.some((d) => d.missingPages > 0);
  return {
    ...aggregateVariant(documents, allPages, anyMissing, 'markdown similarity'),
    raw: aggregateVariant(
      documents.map((d) => d.raw),
      allPages.map((p) => p.raw),
      anyMissing,
      'markdown raw similarity',
    ),
    documents: documents.length,
    pages: allPages.length,
    failedDocuments: documents.filter((d) => d.failed).length,
    missingPages: documents.reduce((n, d) => n + d.missingPages, 0),
    extraPages: documents.reduce((n, d) => n + d.extraPages, 0),
  };
}

function aggregateVariant(
  documents: readonly MarkdownDocumentFigures[],
  pages: readonly Pick<SimilarityScore, 'similarity' | 'bothEmpty'>[],
  anyMissing: boolean,
  metric: string,
): MarkdownAggregateFigures {
  const edits = documents.reduce((n, d) => n + d.edits, 0);
  const length = documents.reduce((n, d) => n + d.length, 0);
  const counted = pages.filter((p) => !p.bothEmpty);
  // Σlength = 0: every page blank on both sides (1), unless a page had no output (a failure is 0).
  const micro = documents.length === 0 ? null : length > 0 ? 1 - edits / length : anyMissing ? 0 : 1;
  const macro =
    documents.length === 0
      ? null
      : counted.length > 0
        ? counted.reduce((s, p) => s + p.similarity, 0) / counted.length
        : 1;
  const documentMean =
    documents.length === 0 ? null : documents.reduce((s, d) => s + d.similarity, 0) / documents.length;
  return {
    micro: checkOptionalUnit(`${metric} (micro)`, micro),
    macro: checkOptionalUnit(`${metric} (macro)`, macro),
    documentMean: checkOptionalUnit(`${metric} (document mean)`, documentMean),
    edits,
    length,
    bothEmptyPages: pages.length - counted.length,
  };
}

/** Per-document edit counts, as in {@link MarkdownDocumentFigures}. */
export interface EditCounts {
  edits: number;
  length: number;
}

/** 1 − edits / length: the similarity of summed counts; 1 when there is nothing on either side. */
export function similarityFromCounts(edits: number, length: number): number {
  return length === 0 ? 1 : 1 - edits / length;
}

/** Micro similarity 1 − Σedits / Σlength over the documents at `indices` (all of them by default); 1 when empty. */
export function computeMicroSimilarity(counts: readonly EditCounts[], indices?: ArrayLike<number>): number {
  let edits = 0;
  let length = 0;
  const n = indices ? indices.length : counts.length;
  for (let k = 0; k < n; k++) {
    const c = counts[indices ? indices[k]! : k]!;
    edits += c.edits;
    length += c.length;
  }
  return similarityFromCounts(edits, length);
}

/**
 * Micro similarity over the drawn documents, as a bootstrap statistic (`pairedBootstrap`'s `statistic`). Edit
 * counts and lengths are integers, whose sums are exact in any order, so it can also be evaluated from how
 * often each document was drawn (`fromMultiplicities`): `pairedBootstrapMany` then reads two typed columns in
 * order instead of visiting every draw, and gets the same number.
 */
export function createMicroSimilarityStatistic(counts: readonly EditCounts[]): (indices: ArrayLike<number>) => number {
  const statistic = (indices: ArrayLike<number>) => computeMicroSimilarity(counts, indices);
  const sums = createEditSums(counts);
  return sums
    ? Object.assign(statistic, {
        fromMultiplicities: (multiplicities: Uint32Array) =>
          similarityFromCounts(sums.edits(multiplicities, 0), sums.length(multiplicities, 0)),
      })
    : statistic;
}

/**
 * The statistic for a paired bootstrap of micro similarity (service − incumbent, or candidate − baseline),
 * recomputed over the resampled documents on each side. Pass it as `statistic` to `compareSystems`, like
 * `createMicroF1Delta` for field F1. Evaluable from multiplicities as {@link createMicroSimilarityStatistic}
 * is; B's columns are stored as differences from A's where that is sparser (two systems mostly agree).
 */
export function createMicroSimilarityDelta(
  a: readonly EditCounts[],
  b: readonly EditCounts[],
): (indices: ArrayLike<number>) => number {
  const statistic = (indices: ArrayLike<number>) =>
    computeMicroSimilarity(a, indices) - computeMicroSimilarity(b, indices);
  const sumsA = createEditSums(a);
  const sumsB = sumsA && a.length === b.length ? createEditSums(b, sumsA.columns) : null;
  if (!sumsA || !sumsB) return statistic;
  return Object.assign(statistic, {
    fromMultiplicities: (multiplicities: Uint32Array) => {
      const editsA = sumsA.edits(multiplicities, 0);
      const lengthA = sumsA.length(multiplicities, 0);
      return (
        similarityFromCounts(editsA, lengthA) -
        similarityFromCounts(sumsB.edits(multiplicities, editsA), sumsB.length(multiplicities, lengthA))
      );
    },
  });
}

interface EditColumns {
  edits: Float64Array;
  length: Float64Array;
}

/** Σedits and Σlength of a resample from its multiplicities; null when the counts are not integers small enough for exact sums. */
function createEditSums(
  counts: readonly EditCounts[],
  reference?: EditColumns,
): { columns: EditColumns; edits: CountedSum; length: CountedSum } | null {
  const columns = {
    edits: Float64Array.from(counts, (c) => c.edits),
    length: Float64Array.from(counts, (c) => c.length),
  };
  const edits = createCountedSum(columns.edits, reference?.edits);
  const length = createCountedSum(columns.length, reference?.length);
  return edits && length ? { columns, edits, length } : null;
}
