/**
 * The tree TEDS compares (PubTabNet's): table → tr → td, where a cell carries its row/column spans and its
 * text. thead / tbody / tfoot are unwrapped (docs/metrics/markdown.md), caption and colgroup dropped, and `th` is read
 * as `td`: header-ness is written inconsistently (a markdown table always has a header row, HTML may mark it
 * with th, with thead, or not at all), so it is not allowed to cost anything.
 */

/** One cell. Spans are ≥ 1. */
export interface TableCell {
  rowspan: number;
  colspan: number;
  /** The cell's text, whitespace collapsed and trimmed (see the parsers for what else is dropped). */
  text: string;
}

/** One table, rows in order. */
export interface TableTree {
  rows: TableCell[][];
  /** Where the table came from in its document. */
  source: 'markdown' | 'html';
  /** Offset of the table's first character in the document it was found in (UTF-16 units). */
  offset: number;
}

/**
 * Nodes counted for the TEDS denominator: rows plus cells, the table root excluded. This is PubTabNet's
 * reference count (`len(table.xpath('.//*'))`, descendants of the table element), and it is the count under
 * which the worked examples of docs/metrics/markdown.md hold: a 2×2 table is 2 rows + 4 cells = 6 nodes, so one fully changed cell
 * gives TEDS 1 − 1/6 and a missing second row (1 tr + 2 td deleted) gives 1 − 3/6 = 0.5.
 */
export function countTableNodes(table: TableTree): number {
  return table.rows.reduce((n, row) => n + 1 + row.length, 0);
}

/** Collapses runs of whitespace to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
