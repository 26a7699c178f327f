/**
 * A provider's reading of a document → docbench's results. Every provider kind reads its answer into pages
 * (size, markdown, lines with boxes and confidences) or into mapped fields; these functions make the
 * CompareResult, SplitResult, ProcessResult and ExtractResult from them, so the shapes are built in one place.
 */
import type { JsonObject } from '../../types.js';
import type { CompareResult, ExtractResult, InchBox, ProcessResult, SplitResult } from '../../service/index.js';
import type { PageSize } from './pages.js';
import { meanConfidence, regionPage } from './layout.js';

/** One line of a page: its text, its box in inches (null: the provider gave none) and confidence 0–100. */
export interface ReadLine {
  text: string;
  box: InchBox | null;
  confidence: number | null;
}

/** One page as a provider kind read it. */
export interface ReadPage {
  /** 1-based. */
  page: number;
  /** In points; null when unknown. */
  size: PageSize | null;
  /** The page's markdown; called only for compare (and process without lines). */
  markdown(): string;
  /** Lines in reading order; absent for providers that give markdown only. */
  lines?: readonly ReadLine[];
}

export type PagesOperation = 'compare' | 'split' | 'process';

/** The result of a page-wise operation. */
export function pagesResult(
  operation: PagesOperation,
  pages: readonly ReadPage[],
): CompareResult | SplitResult | ProcessResult {
  if (operation === 'compare')
    return compareResult(
      pages.map((page) => ({
        content: page.markdown(),
        width: page.size?.width ?? null,
        height: page.size?.height ?? null,
      })),
    );
  if (operation === 'split') return splitResult(pages);
  // Pages separated by a form feed, as `tesseract … txt` separates them.
  return processResult(
    pages.map((page) => (page.lines ? page.lines.map((line) => line.text).join('\n') : page.markdown())),
  );
}

export function compareResult(pages: CompareResult['pages'], failedPageList: number[] = []): CompareResult {
  return {
    success: true,
    pages,
    dashboardUrl: null,
    comparisonId: null,
    failedPages: failedPageList.length,
    failedPageList,
  };
}

/** One region per line that has a box; sizes rounded as the interface gives them. */
export function splitResult(pages: readonly ReadPage[]): SplitResult {
  return {
    pages: pages.map((page) =>
      regionPage(
        page.page,
        page.size ?? { width: 0, height: 0 },
        (page.lines ?? []).flatMap((line) =>
          line.box === null
            ? []
            : [
                {
                  bounding_box: line.box,
                  content: line.text,
                  ...(line.confidence === null ? {} : { confidence: line.confidence }),
                },
              ],
        ),
      ),
    ),
  };
}

export function processResult(pageTexts: readonly string[]): ProcessResult {
  return {
    status: 'success',
    documentId: null,
    text: pageTexts.join('\n\f'),
    structuredData: {},
    pageCount: pageTexts.length,
    processingTimeMs: null,
  };
}

/**
 * Fields mapped onto the schema, with the document's confidence: the mean of the filled fields' confidences
 * (each 0–100); `scale` says which scale the provider itself used.
 */
export function fieldsResult(
  data: JsonObject,
  confidences: readonly number[],
  options: { pagesProcessed: number | null; scale: '0-1' | '0-100' },
): ExtractResult {
  const confidence = meanConfidence(confidences, 100);
  return {
    data,
    responseForm: 'object',
    method: null,
    pagesProcessed: options.pagesProcessed,
    confidence,
    confidenceScale: confidence === null ? null : options.scale,
  };
}
