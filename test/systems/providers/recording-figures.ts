/**
 * Figures of an adapter's output against a vendor's recorded answer: how many of the recorded lines' words
 * the markdown keeps, the markdown's tables as rows × columns, and whether each line's region lies inside its
 * page. Tests assert on them; A report can print the same figures the tests check.
 */
import { findTables } from '../../../src/score/tables/index.js';
import type { RegionPage } from '../../../src/service/types.js';

/** Share of the recorded lines' words (a multiset, split on white space) found among the markdown's words. */
export function wordRecall(recordedLines: readonly string[], markdown: string): number {
  const available = new Map<string, number>();
  for (const word of markdown.split(/[\s|]+/).filter(Boolean)) available.set(word, (available.get(word) ?? 0) + 1);
  const wanted = recordedLines.flatMap((line) => line.split(/\s+/).filter(Boolean));
  let found = 0;
  for (const word of wanted) {
    const left = available.get(word) ?? 0;
    if (left > 0) {
      found++;
      available.set(word, left - 1);
    }
  }
  return wanted.length === 0 ? 1 : found / wanted.length;
}

/** Each table of the markdown as `rows×columns` (columns of its widest row). */
export function tableShapes(markdown: string): string[] {
  return findTables(markdown).map((table) => `${table.rows.length}×${Math.max(0, ...table.rows.map((row) => row.length))}`);
}

/** Regions whose box is not inside its page (inches against the page's points ÷ 72). */
export function regionsOutsidePage(pages: readonly RegionPage[]): number {
  return pages.reduce(
    (count, page) =>
      count +
      page.bounding_boxes.filter(({ bounding_box: b }) => !(b.min_x >= 0 && b.min_y >= 0 && b.max_x <= page.width / 72 + 1e-6 && b.max_y <= page.height / 72 + 1e-6 && b.min_x <= b.max_x && b.min_y <= b.max_y)).length,
    0,
  );
}
