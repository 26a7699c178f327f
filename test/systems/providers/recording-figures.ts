/**
 * Figures of an adapter's output against a vendor's recorded answer, in the terms the recording gives:
 * the markdown's tables as grids of cell words (as the tables scorer finds them), and whether each line's
 * region lies inside its page. Word recall and precision are the scorer's own (score/markdown/words.ts).
 */
import { findTables } from '../../../src/score/tables/index.js';
import { tokenizeWords } from '../../../src/score/markdown/words.js';
import type { RegionPage } from '../../../src/service/types.js';

/** Each table of the markdown as rows of cells, each cell its words (lowercased) joined by one space. */
export function markdownTables(markdown: string): string[][][] {
  return findTables(markdown).map((table) => table.rows.map((row) => row.map((cell) => cellWords(cell.text))));
}

/** A cell's text as the tables above give it: its words joined by one space (marks and punctuation dropped). */
export function cellWords(text: string): string {
  return tokenizeWords(text).join(' ');
}

/** Regions whose box is not inside its page (inches against the page's points ÷ 72). */
export function regionsOutsidePage(pages: readonly RegionPage[]): number {
  return pages.reduce(
    (count, page) =>
      count +
      page.bounding_boxes.filter(
        ({ bounding_box: b }) =>
          !(
            b.min_x >= 0 &&
            b.min_y >= 0 &&
            b.max_x <= page.width / 72 + 1e-6 &&
            b.max_y <= page.height / 72 + 1e-6 &&
            b.min_x <= b.max_x &&
            b.min_y <= b.max_y
          ),
      ).length,
    0,
  );
}
