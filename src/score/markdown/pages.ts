/**
 * Per-page markdown fidelity of one document (docs/metrics/markdown.md). Pages are paired by index; a page the service
 * did not return (fewer pages, or a failed call passed as `null`) scores as empty output, and a page it
 * invented scores against an empty truth page. Never skip a failure: public benchmarks that do report
 * inflated numbers.
 */
import { checkUnit } from '../shared/check-metric.js';
import { markdownSimilarity, type MarkdownSimilarity, type SimilarityScore } from './similarity.js';
import { SIMILARITY_NORMALIZATION } from './normalize-text.js';

/**
 * `scored`: both sides have the page. `missing`: truth has it, the prediction does not (or the call failed):
 * similarity 0 even when the truth page is blank. `extra`: the prediction has a page beyond the truth's.
 */
export type MarkdownPageStatus = 'scored' | 'missing' | 'extra';

/** One page's score. `page` is 1-based. */
export interface MarkdownPageScore extends MarkdownSimilarity {
  page: number;
  status: MarkdownPageStatus;
}

/** Document-level figures for one variant (normalised or raw). */
export interface MarkdownDocumentFigures {
  /** Micro: 1 − Σedits / Σlength over the document's pages; higher is better. */
  similarity: number;
  /** Mean page similarity over pages that are not both empty (1 when every page is both empty). */
  macro: number;
  edits: number;
  length: number;
  /** Pages whose two sides are both empty: similarity 1, left out of `macro`, counted here. */
  bothEmptyPages: number;
}

/** {@link scoreMarkdownPages}: one document. */
export interface MarkdownDocumentScore extends MarkdownDocumentFigures {
  normalization: readonly string[];
  raw: MarkdownDocumentFigures;
  pages: MarkdownPageScore[];
  /** The prediction was `null`: the call failed, every truth page counts as missing. */
  failed: boolean;
  truthPageCount: number;
  predictedPageCount: number;
  missingPages: number;
  extraPages: number;
}

/**
 * Scores a document page by page. `predictedPages` is `null` when the call failed (after retries) or its
 * response could not be read; the document then scores 0 on every page.
 */
export function scoreMarkdownPages(
  predictedPages: readonly string[] | null,
  truthPages: readonly string[],
): MarkdownDocumentScore {
  const predicted = predictedPages ?? [];
  const count = Math.max(predicted.length, truthPages.length);
  const pages: MarkdownPageScore[] = [];
  for (let index = 0; index < count; index++) {
    const prediction = predicted[index];
    const truth = truthPages[index];
    if (prediction === undefined) pages.push(scoreMissingPage(index + 1, truth ?? ''));
    else
      pages.push({
        ...markdownSimilarity(prediction, truth ?? ''),
        page: index + 1,
        status: truth === undefined ? 'extra' : 'scored',
      });
  }
  const anyMissing = pages.some((p) => p.status === 'missing');
  return {
    ...summarizePages(pages, anyMissing, 'markdown document similarity'),
    normalization: SIMILARITY_NORMALIZATION,
    raw: summarizePages(
      pages.map((p) => p.raw),
      anyMissing,
      'markdown document raw similarity',
    ),
    pages,
    failed: predictedPages === null,
    truthPageCount: truthPages.length,
    predictedPageCount: predicted.length,
    missingPages: pages.filter((p) => p.status === 'missing').length,
    extraPages: pages.filter((p) => p.status === 'extra').length,
  };
}

/** No output for a truth page: empty prediction, and never the "both empty → 1" reward. */
function scoreMissingPage(page: number, truth: string): MarkdownPageScore {
  const score = markdownSimilarity('', truth);
  const zero = (s: SimilarityScore): SimilarityScore => ({ ...s, similarity: 0, ned: 1, bothEmpty: false });
  return { ...zero(score), normalization: score.normalization, raw: zero(score.raw), page, status: 'missing' };
}

function summarizePages(
  pages: readonly SimilarityScore[],
  anyMissing: boolean,
  metric: string,
): MarkdownDocumentFigures {
  let edits = 0;
  let length = 0;
  let sum = 0;
  let counted = 0;
  for (const page of pages) {
    edits += page.edits;
    length += page.length;
    if (page.bothEmpty) continue;
    sum += page.similarity;
    counted++;
  }
  // Σlength = 0: every page is blank on both sides (1), unless some page had no output (a failure is 0).
  const micro = length > 0 ? 1 - edits / length : anyMissing ? 0 : 1;
  return {
    similarity: checkUnit(metric, micro),
    macro: checkUnit(`${metric} (macro)`, counted > 0 ? sum / counted : 1),
    edits,
    length,
    bothEmptyPages: pages.length - counted,
  };
}
