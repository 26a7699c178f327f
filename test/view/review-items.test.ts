import { describe, expect, it } from 'vitest';
import {
  findBoxes,
  normalizeForReview,
  orderReviewItems,
  rankSubject,
  TIER_LABELS,
  type ReviewItem,
  type ReviewSubject,
  type SystemValue,
} from '../../src/view/review-items.js';

function field(path: string, truth: unknown, values: unknown[], documentId = 'doc-1'): ReviewSubject {
  const systems: SystemValue[] = values.map((value, i) => ({
    system: `s${i + 1}`,
    value: value as SystemValue['value'],
    boxes: [],
  }));
  return { document_id: documentId, kind: 'field', path, page: null, truth: truth as SystemValue['value'], systems };
}

describe('rankSubject', () => {
  it('leaves out a subject every system matches', () => {
    expect(rankSubject(field('a', 'x', ['x', ' X ']))).toBeNull();
  });

  it('puts systems that agree with each other but not with the truth first', () => {
    const item = rankSubject(field('a', 'Acme', ['Acme Ltd', 'acme  ltd']))!;
    expect(item.tier).toBe(1);
    expect(item.matches).toEqual([false, false]);
    expect(item.reason).toContain('all 2 systems');
  });

  it('ranks a majority against the truth above a lone dissenter', () => {
    expect(rankSubject(field('a', '1', ['2', '2', '1']))!.tier).toBe(2);
    expect(rankSubject(field('a', '1', ['1', '1', '7']))!.tier).toBe(3);
    expect(rankSubject(field('a', '1', ['1', '1', '7']))!.reason).toBe(
      'one system differs from the truth the others match',
    );
    expect(rankSubject(field('a', '1', ['5', '6']))!.tier).toBe(3);
  });

  it('does not count systems that return nothing as agreeing', () => {
    expect(rankSubject(field('a', 'x', [null, null]))!.tier).toBe(3);
  });

  it("trusts the scorer's verdict while the truth is unchanged, and compares values once it changed", () => {
    const subject = field('a', '12.50', ['$12.5']);
    subject.systems[0]!.scored = { truth: '12.50', verdict: 'tp' };
    expect(rankSubject(subject)).toBeNull();
    subject.systems[0]!.scored = { truth: '99', verdict: 'tp' };
    expect(rankSubject(subject)).toBeNull();
    subject.truth = '13';
    expect(rankSubject(subject)!.matches).toEqual([false]);
  });

  it('ranks markdown pages by how alike the systems read them', () => {
    const page = (truth: string, values: string[]): ReviewSubject => ({
      document_id: 'd',
      kind: 'page',
      path: null,
      page: 2,
      truth,
      systems: values.map((value, i) => ({ system: `s${i}`, value, boxes: [] })),
    });
    expect(rankSubject(page('Total: 12', ['Total: 12', 'Total: 12']))).toBeNull();
    const agreed = rankSubject(page('Totl: 12', ['Total: 12 USD', 'Total: 12 USD']))!;
    expect([agreed.tier, agreed.show_page, agreed.id]).toEqual([1, 2, 'page:d:2']);
    const apart = rankSubject(page('Total: 12', ['Something else entirely', 'Total: 21 and more text']))!;
    expect([apart.tier, apart.label, apart.reason]).toEqual([
      3,
      'systems differ',
      'the systems read this page differently from the truth and from each other',
    ]);
    const two = rankSubject(page('Total: 12', ['Total: 12 USD', 'Total: 12 USD', 'Something else entirely']))!;
    expect([two.tier, two.label, two.reason]).toEqual([
      2,
      'some systems agree against the truth',
      '2 of 3 systems read this page alike, not as the truth does',
    ]);
  });

  it('labels every item with one statement: the tier label and the reason never contradict each other', () => {
    const page = (truth: string, values: string[]): ReviewSubject => ({
      document_id: 'd',
      kind: 'page',
      path: null,
      page: 1,
      truth,
      systems: values.map((value, i) => ({ system: `s${i}`, value, boxes: [] })),
    });
    const subjects = [
      field('a', '1', ['2', '2']),
      field('a', '1', ['2', '2', '1']),
      field('a', '1', ['2', '3']),
      field('a', '1', ['1', '7']),
      field('a', '1', ['7']),
      page('Totl: 12', ['Total: 12 USD', 'Total: 12 USD']),
      page('Total: 12', ['Something else entirely', 'Total: 21 and more text']),
      page('Total: 12', ['Other text']),
    ];
    for (const item of subjects.map((s) => rankSubject(s)!)) {
      expect(item.label).toBe(TIER_LABELS[item.tier]);
      // Agreement against the truth is said exactly when the tier says it.
      expect(/alike|same value|agree with each other/.test(item.reason), item.reason).toBe(item.tier <= 2);
      expect(/differently from the truth and from each other|disagree|one system/.test(item.reason), item.reason).toBe(
        item.tier === 3,
      );
    }
  });
});

describe('orderReviewItems', () => {
  it('orders by tier, fields before pages, agreement, then document and path', () => {
    const items = [
      field('b', '1', ['2', '3', '2']),
      field('a', '1', ['2', '2']),
      field('c', '1', ['2', '2', '2']),
      field('a', '1', ['2', '2'], 'doc-0'),
    ].map((s) => rankSubject(s)!);
    expect(orderReviewItems(items).map((i: ReviewItem) => i.id)).toEqual([
      'field:doc-1:c',
      'field:doc-0:a',
      'field:doc-1:a',
      'field:doc-1:b',
    ]);
  });
});

describe('normalizeForReview', () => {
  it('reads money, spacing and case as a reviewer does', () => {
    expect(normalizeForReview('$1,234.50')).toBe(normalizeForReview(1234.5));
    expect(normalizeForReview('  Jane   DOE ')).toBe('jane doe');
    expect(normalizeForReview(null)).toBe('');
    expect(normalizeForReview({ b: 1, a: 'X' })).toBe(normalizeForReview({ a: 'x', b: '1' }));
  });
});

describe('findBoxes', () => {
  it('locates a value in the regions that hold it, as fractions of the page', () => {
    const regions = [
      {
        page: 1,
        width: 612,
        height: 792,
        bounding_boxes: [
          { bounding_box: { min_x: 1, min_y: 2, max_x: 4.25, max_y: 2.5 }, content: 'Patient: JANE DOE' },
          { bounding_box: { min_x: 0, min_y: 0, max_x: 1, max_y: 1 }, content: 'other' },
        ],
      },
    ];
    expect(findBoxes(regions, 'Jane Doe')).toEqual([
      { page: 1, x0: 72 / 612, y0: 144 / 792, x1: 306 / 612, y1: 180 / 792 },
    ]);
    expect(findBoxes(regions, 'x')).toEqual([]);
    expect(findBoxes(regions, null)).toEqual([]);
  });
});
