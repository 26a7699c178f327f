/**
 * Plain truth markdown split into blocks (docs/metrics.md "Blocks"): by the splitter a system's markdown goes
 * through, each block given a category and its place in the reading order; and the pipe tables that splitter
 * writes read without the HTML parser into the same normalised table the parser gives.
 */
import { describe, expect, it } from 'vitest';
import { normalizeHtmlTable, omniTeds } from '../../src/score/blocks/omni-table.js';
import { pageBlockFigures, scorePageBlocks, splitTruthBlocks } from '../../src/score/index.js';

const PAGE = [
  '# Minutes',
  '',
  'The committee met on Monday.',
  '',
  'Decisions:',
  '- approve the budget',
  '- reconvene in June,',
  '  after the consultation',
  '1. a numbered item',
  '',
  '$$',
  'E = mc^2',
  '$$',
  '',
  '| Item | Amount |',
  '|---|---|',
  '| Lab panel | 12.50 |',
  '',
  'Closing remark with $x^2$ inline.',
].join('\n');

describe('plain truth markdown → blocks', () => {
  it('gives headings, paragraphs, each list item, display formulas and tables, numbered in page order', () => {
    const blocks = splitTruthBlocks(PAGE);
    expect(blocks.map((b) => [b.order, b.category, b.content])).toEqual([
      [1, 'title', '# Minutes'],
      [2, 'text_block', 'The committee met on Monday.'],
      [3, 'text_block', 'Decisions:'],
      [4, 'text_block', '- approve the budget'],
      [5, 'text_block', '- reconvene in June,\nafter the consultation'],
      [6, 'text_block', '1. a numbered item'],
      [7, 'equation_isolated', '\\[E=mc^2\\]'],
      [
        8,
        'table',
        '<table><tr><td colspan="1" rowspan="1">Item</td><td colspan="1" rowspan="1">Amount</td></tr>' +
          '<tr><td colspan="1" rowspan="1">Lab panel</td><td colspan="1" rowspan="1">12.50</td></tr></table>',
      ],
      // The inline formula stays in its paragraph: only display formulas are blocks of their own.
      [9, 'text_block', 'Closing remark with $x^2$ inline.'],
    ]);
  });

  it('scores the page against itself as perfect, and a paragraph read elsewhere by the reading order', () => {
    const truth = splitTruthBlocks(PAGE);
    const self = pageBlockFigures(scorePageBlocks(truth, PAGE));
    expect(self).toMatchObject({ text_edit: 0, formula_edit: 0, table_teds: 1, table_edit: 0, reading_order_edit: 0 });
    // The second paragraph read after the table. The list items are one paragraph of the output, which all four
    // truth blocks 3–6 match (OmniDocBench's merge), so they share its place and keep their truth order.
    const moved = PAGE.replace('The committee met on Monday.\n\n', '').replace(
      '\n\nClosing',
      '\n\nThe committee met on Monday.\n\nClosing',
    );
    const score = scorePageBlocks(truth, moved);
    expect(score.readingOrder?.truth).toEqual([1, 2, 3, 4, 5, 6, 9]);
    expect(score.readingOrder?.output).toEqual([1, 3, 4, 5, 6, 2, 9]);
    // Levenshtein: 2 taken out and put back (2 edits), over the 7 numbers.
    expect(pageBlockFigures(score).reading_order_edit).toBeCloseTo(2 / 7, 12);
    expect(pageBlockFigures(score).text_edit).toBe(0);
  });

  it('reads a pipe table as written by the splitter into the tree the HTML parser gives', () => {
    const rows =
      '<tr><td colspan="1" rowspan="1">Item</td><td colspan="1" rowspan="1"></td></tr>' +
      '<tr><td colspan="1" rowspan="1">X-ray,  chest ①</td><td colspan="1" rowspan="1">12.50</td></tr>';
    const plain = normalizeHtmlTable(`<table>${rows}</table>`);
    // `<table >` is not the splitter's form: this one goes through the parser.
    const parsed = normalizeHtmlTable(`<table >${rows}</table>`);
    expect(plain).toEqual(parsed);
    expect(plain.html).toBe(
      '<html><body><table border="1" ><tr><td colspan="1" rowspan="1">Item</td><td colspan="1" rowspan="1"></td></tr>' +
        '<tr><td colspan="1" rowspan="1">X-ray, chest 1</td><td colspan="1" rowspan="1">12.50</td></tr></table></body></html>',
    );
  });

  it('gives TEDS 1 to identical tables and TEDS-S 1 when only the text differs', () => {
    const table = (cell: string) =>
      normalizeHtmlTable(
        `<table><tr><td colspan="1" rowspan="1">${cell}</td><td colspan="1" rowspan="1">b</td></tr></table>`,
      );
    expect(omniTeds(table('abcd'), table('abcd'), false)).toBe(1);
    expect(omniTeds(table('abcd'), table('abcx'), true)).toBe(1);
    // One cell of the two renamed at 1/4: TED 0.25 over 3 nodes (tr and two td).
    expect(omniTeds(table('abcd'), table('abcx'), false)).toBeCloseTo(1 - 0.25 / 3, 12);
  });
});
