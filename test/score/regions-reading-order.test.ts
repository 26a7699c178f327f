/**
 * Reading order of predicted regions: docling-eval's normalised average relative distance (ARD) over the
 * regions matched to truth at IoU ≥ 0.5 (docs/metrics/regions.md "Reading order"), values computed by hand.
 */
import { describe, expect, it } from 'vitest';
import { aggregateRegions, normalizedArd, pageReadingOrder, scoreRegions } from '../../src/score/regions/index.js';
import type { InchBox, RegionPage } from '../../src/service/types.js';

const box = (row: number): InchBox => ({ min_x: 1, min_y: row, max_x: 5, max_y: row + 0.8 });
const page = (number: number, rows: number[]): RegionPage => ({
  page: number,
  width: 612,
  height: 792,
  bounding_boxes: rows.map((row) => ({ bounding_box: box(row), content: `region ${row}` })),
});

describe('normalised ARD', () => {
  it('is 1 in the truth order', () => {
    expect(normalizedArd([0, 1, 2, 3, 4])).toBe(1);
    expect(normalizedArd([0])).toBe(1);
  });
  it('is at its lowest reversed: 1 − ⌊n²/2⌋ / n²', () => {
    // n = 4: |3−0| + |2−1| + |1−2| + |0−3| = 8, 1 − 8/16.
    expect(normalizedArd([3, 2, 1, 0])).toBe(0.5);
    // n = 5: 4 + 2 + 0 + 2 + 4 = 12, 1 − 12/25.
    expect(normalizedArd([4, 3, 2, 1, 0])).toBeCloseTo(0.52, 12);
  });
  it('takes 2/n² for two neighbours swapped', () => {
    expect(normalizedArd([0, 2, 1, 3, 4])).toBeCloseTo(1 - 2 / 25, 12);
  });
  it('refuses a page without regions (0/0) as an invalid score', () => {
    expect(() => normalizedArd([])).toThrow(/reading order ARD/);
  });
});

describe('reading order of the matched regions', () => {
  it('ranks each matched truth region by where its prediction stands', () => {
    // Truth boxes 0, 1, 2; predicted boxes 0, 1, 2 matched with truth 2, 0, 1: read 2, 0, 1.
    const order = pageReadingOrder(1, [
      { truthIndex: 2, predictedIndex: 0 },
      { truthIndex: 0, predictedIndex: 1 },
      { truthIndex: 1, predictedIndex: 2 },
    ]);
    expect(order).toMatchObject({ page: 1, truth: [0, 1, 2], predicted: [2, 0, 1] });
    // Truth 0 is read second (rank 1), truth 1 third (2), truth 2 first (0): 1 + 1 + 2 = 4 over 9.
    expect(order!.ard).toBeCloseTo(1 - 4 / 9, 12);
    expect(pageReadingOrder(1, [])).toBeNull();
  });

  it('scores /split output: unmatched regions left out, pages averaged', () => {
    const truth = [page(1, [1, 2, 3, 4]), page(2, [1, 2])];
    // Page 1: truth regions 1–3 predicted in the order 3, 1, 2, region 4 missed, one region far away
    // (no match). Page 2: both in order.
    const predicted = [page(1, [3, 1, 9, 2]), page(2, [1, 2])];
    const score = scoreRegions(predicted, truth);
    expect(score.pageOrders).toEqual([
      { page: 1, truth: [0, 1, 2], predicted: [2, 0, 1], ard: expect.closeTo(1 - 4 / 9, 12) },
      { page: 2, truth: [0, 1], predicted: [0, 1], ard: 1 },
    ]);
    expect(score.readingOrder).toBeCloseTo((5 / 9 + 1) / 2, 12);
    // Over documents: the mean over all their pages with matches.
    const reversed = scoreRegions([page(1, [2, 1])], [page(1, [1, 2])]);
    expect(reversed.readingOrder).toBe(0.5);
    expect(aggregateRegions([score, reversed]).readingOrder).toBeCloseTo((5 / 9 + 1 + 0.5) / 3, 12);
    // Nothing matched: no order to compare.
    expect(scoreRegions(null, truth).readingOrder).toBeNull();
  });
});
