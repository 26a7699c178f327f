import { describe, expect, it } from 'vitest';
import { pageBlockFigures, scorePageBlocks, type TruthBlock } from '../../src/score/index.js';

const PARAGRAPHS = [
  'The committee met on Monday to review the annual budget for the coming year.',
  'Several members raised concerns about the rising cost of maintaining the old library.',
  'A proposal to merge two departments was discussed at length without a decision.',
  'The treasurer presented figures showing a modest surplus in the last quarter.',
  'The meeting closed with a vote to reconvene after the public consultation.',
];

const truth: TruthBlock[] = PARAGRAPHS.map((content, index) => ({ category: 'text_block', order: index + 1, content }));

function readingOrderEdit(order: number[]): number | null {
  const markdown = order.map((index) => PARAGRAPHS[index]).join('\n\n');
  return pageBlockFigures(scorePageBlocks(truth, markdown)).reading_order_edit;
}

describe('reading-order edit distance (OmniDocBench quick matching)', () => {
  it('is 0 for the five paragraphs in order', () => {
    expect(readingOrderEdit([0, 1, 2, 3, 4])).toBe(0);
  });
  it('is 0.4 with two paragraphs swapped', () => {
    expect(readingOrderEdit([0, 2, 1, 3, 4])).toBeCloseTo(0.4, 10);
  });
  it('is 0.8 reversed', () => {
    expect(readingOrderEdit([4, 3, 2, 1, 0])).toBeCloseTo(0.8, 10);
  });
  it('is 1/3 with one dropped: the dropped block is listed twice in the truth order, as OmniDocBench does', () => {
    const score = scorePageBlocks(truth, [0, 1, 2, 4].map((index) => PARAGRAPHS[index]).join('\n\n'));
    expect(score.readingOrder?.truth).toEqual([1, 2, 3, 4, 4, 5]);
    expect(score.readingOrder?.output).toEqual([1, 2, 3, 5]);
    expect(pageBlockFigures(score).reading_order_edit).toBeCloseTo(1 / 3, 10);
    // The miss counts twice in the text edit distance as well: 2 × its length of the page's summed lengths.
    expect(score.text?.edits).toBeGreaterThan(0);
  });
  it('does not count headers and page numbers it matches only to drop', () => {
    const withHeader: TruthBlock[] = [{ category: 'header', order: 0, content: 'Minutes of the committee' }, ...truth];
    const markdown = `Minutes of the committee\n\n${PARAGRAPHS.join('\n\n')}`;
    const figures = pageBlockFigures(scorePageBlocks(withHeader, markdown));
    expect(figures.text_edit).toBe(0);
    expect(figures.reading_order_edit).toBe(0);
  });
});
