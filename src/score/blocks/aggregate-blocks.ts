/**
 * Block metrics over pages, averaged as OmniDocBench averages them (docs/metrics.md "Blocks"): each edit
 * distance per page first (the page's summed edits ÷ its summed longer lengths), then the mean over the pages
 * that have such blocks ("ALL_page_avg"); TEDS and TEDS-S as the mean over all matched truth tables.
 */
import { createCountedSum, type CountedResampleStatistic } from '../stats/index.js';
import type { PageBlocksScore } from './score-blocks.js';

/** One page's figures (null: the page has no such blocks). Edit distances: lower is better. */
export interface PageBlockFigures {
  text_edit: number | null;
  formula_edit: number | null;
  table_teds: number | null;
  table_teds_structure: number | null;
  table_edit: number | null;
  reading_order_edit: number | null;
  /** Truth tables on the page (the weight of its TEDS in the mean over tables). */
  tables: number;
}

export interface BlockFigures {
  text_edit: number | null;
  formula_edit: number | null;
  table_teds: number | null;
  table_teds_structure: number | null;
  table_edit: number | null;
  reading_order_edit: number | null;
  /** Pages scored. */
  pages: number;
}

const ratio = (edits: number, length: number): number | null => (length > 0 ? edits / length : null);

export function pageBlockFigures(score: PageBlocksScore): PageBlockFigures {
  const tables = score.tables.length;
  const tableEdits = score.tables.reduce((sum, table) => sum + table.edits, 0);
  const tableLength = score.tables.reduce((sum, table) => sum + table.length, 0);
  return {
    text_edit: score.text ? ratio(score.text.edits, score.text.length) : null,
    formula_edit: score.formula ? ratio(score.formula.edits, score.formula.length) : null,
    table_teds: tables > 0 ? score.tables.reduce((sum, table) => sum + table.teds, 0) / tables : null,
    table_teds_structure:
      tables > 0 ? score.tables.reduce((sum, table) => sum + table.tedsStructure, 0) / tables : null,
    table_edit: tables > 0 ? ratio(tableEdits, tableLength) : null,
    reading_order_edit: score.readingOrder ? ratio(score.readingOrder.edits, score.readingOrder.length) : null,
    tables,
  };
}

function meanOf(values: readonly (number | null)[]): number | null {
  const present = values.filter((value): value is number => value !== null && Number.isFinite(value));
  return present.length > 0 ? present.reduce((sum, value) => sum + value, 0) / present.length : null;
}

/** The mean over tables, from each page's mean and its table count. */
function tableMean(pages: readonly PageBlockFigures[], figure: TableTedsFigure): number | null {
  const tables = tableTedsSum(pages, figure);
  return tables ? tables.sum / tables.count : null;
}

export function aggregateBlocks(pages: readonly PageBlockFigures[]): BlockFigures {
  return {
    text_edit: meanOf(pages.map((page) => page.text_edit)),
    formula_edit: meanOf(pages.map((page) => page.formula_edit)),
    table_teds: tableMean(pages, 'table_teds'),
    table_teds_structure: tableMean(pages, 'table_teds_structure'),
    table_edit: meanOf(pages.map((page) => page.table_edit)),
    reading_order_edit: meanOf(pages.map((page) => page.reading_order_edit)),
    pages: pages.length,
  };
}

/** The page-averaged edit distances, which `docbench run` and `docbench diff` compare paired by document. */
export const BLOCK_EDIT_FIGURES = ['text_edit', 'reading_order_edit', 'formula_edit', 'table_edit'] as const;
export type BlockEditFigure = (typeof BLOCK_EDIT_FIGURES)[number];

/** One document's pages that have a figure: the figures' sum and how many pages have one. */
export interface PageSum {
  sum: number;
  count: number;
}

/** The sum of one figure over a document's pages; null when no page has it. */
export function pageSum(
  pages: readonly Pick<PageBlockFigures, BlockEditFigure>[],
  figure: BlockEditFigure,
): PageSum | null {
  let sum = 0;
  let count = 0;
  for (const page of pages) {
    const value = page[figure];
    if (value === null || !Number.isFinite(value)) continue;
    sum += value;
    count++;
  }
  return count > 0 ? { sum, count } : null;
}

/** The table figures averaged over tables, which `docbench run` and `docbench diff` compare paired by document. */
export const TABLE_TEDS_FIGURES = ['table_teds', 'table_teds_structure'] as const;
export type TableTedsFigure = (typeof TABLE_TEDS_FIGURES)[number];

/**
 * One document's table TEDS (or TEDS-S) as the mean over tables pools it: Σ of its tables' figures and how many;
 * null when it has no truth table. The same shape as a page sum, so it is compared between systems the same way.
 */
export function tableTedsSum(
  pages: readonly Pick<PageBlockFigures, TableTedsFigure | 'tables'>[],
  figure: TableTedsFigure,
): PageSum | null {
  let sum = 0;
  let count = 0;
  for (const page of pages) {
    const value = page[figure];
    if (value === null || !Number.isFinite(value)) continue;
    sum += value * page.tables;
    count += page.tables;
  }
  return count > 0 ? { sum, count } : null;
}

/**
 * Σ sums and Σ counts over a resample, from how often each document was drawn (the multiplicities add up to
 * the number of documents). Most documents share one sum (0 for a page read in order, 1 for a table read
 * right), so the sums are that value times the documents plus the deviations from it, added in document order:
 * the same multiplicities always give the same number. The page counts, integers, are an exact counted sum.
 */
type PageColumns = (multiplicities: Uint32Array) => { sum: number; count: number };

function mostFrequent(values: readonly number[]): number {
  const frequency = new Map<number, number>();
  let mode = 0;
  let modeCount = 0;
  for (const value of values) {
    const seen = (frequency.get(value) ?? 0) + 1;
    frequency.set(value, seen);
    if (seen > modeCount) {
      mode = value;
      modeCount = seen;
    }
  }
  return mode;
}

function pageColumns(pages: readonly PageSum[]): PageColumns {
  const n = pages.length;
  const mode = mostFrequent(pages.map((page) => page.sum));
  const deviating = pages.flatMap((page, i) => (page.sum === mode ? [] : [i]));
  const positions = Uint32Array.from(deviating);
  const deviations = Float64Array.from(deviating, (i) => pages[i]!.sum - mode);
  const counts = Float64Array.from(pages, (page) => page.count);
  const countedPages = createCountedSum(counts);
  return (multiplicities) => {
    let deviation = 0;
    for (let k = 0; k < positions.length; k++) deviation += multiplicities[positions[k]!]! * deviations[k]!;
    let count = 0;
    if (countedPages) count = countedPages(multiplicities, 0);
    else for (let i = 0; i < n; i++) count += multiplicities[i]! * counts[i]!;
    return { sum: mode * n + deviation, count };
  };
}

/**
 * A statistic of drawn documents that depends only on how often each was drawn: the draws are counted first,
 * so any order of the same draws gives the same number, and `pairedBootstrapMany` evaluates it from the
 * multiplicities it counts (one pass over typed columns per resample instead of a visit of every draw).
 */
function fromDrawCounts(n: number, fromMultiplicities: (multiplicities: Uint32Array) => number) {
  const drawn = new Uint32Array(n);
  const statistic = (indices: Uint32Array): number => {
    drawn.fill(0);
    for (let k = 0; k < indices.length; k++) drawn[indices[k]!]!++;
    return fromMultiplicities(drawn);
  };
  return Object.assign(statistic, { fromMultiplicities }) satisfies CountedResampleStatistic;
}

/**
 * The mean over the pages of the drawn documents (a document drawn twice counts its pages twice): the page
 * average as `aggregateBlocks` computes it, recomputed on a bootstrap resample of documents.
 */
export function createPageMeanStatistic(pages: readonly PageSum[]): CountedResampleStatistic {
  const columns = pageColumns(pages);
  return fromDrawCounts(pages.length, (multiplicities) => {
    const { sum, count } = columns(multiplicities);
    return sum / count;
  });
}

/** The page average of `a` minus that of `b` over the same drawn documents (paired: `a[i]` and `b[i]` are one document). */
export function createPageMeanDelta(a: readonly PageSum[], b: readonly PageSum[]): CountedResampleStatistic {
  const columnsA = pageColumns(a);
  const columnsB = pageColumns(b);
  return fromDrawCounts(a.length, (multiplicities) => {
    const sa = columnsA(multiplicities);
    const sb = columnsB(multiplicities);
    return sa.sum / sa.count - sb.sum / sb.count;
  });
}
