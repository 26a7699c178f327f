import { describe, expect, it } from 'vitest';
import {
  aggregateExtraction,
  anlsLeaf,
  anlsStar,
  levenshteinCodePoints,
  scoreExtraction,
} from '../../src/score/extraction/index.js';

const C2 = [
  { cpt: '99213', units: 1 },
  { cpt: '85025', units: 2 },
];

describe('aggregateExtraction', () => {
  const documents = [
    scoreExtraction({ codes: C2 }, { codes: [C2[0]!, { cpt: '85025', units: 3 }] }), // 3/1/1
    scoreExtraction({ codes: [...C2, { cpt: '36415', units: 1 }] }, { codes: C2 }), // 4/0/2
    scoreExtraction({}, {}), // 0/0/0, F1 1
    scoreExtraction({ name: 'A', total: 1 }, {}, { parseFailure: true }), // 0/0/2
    scoreExtraction({ name: 'John', total: 125.5 }, { name: 'John', total: '125.50' }), // 2/0/0, strict 1/1/1
  ];
  const aggregate = aggregateExtraction(documents);

  it('sums counts for the micro headline', () => {
    expect([aggregate.micro.tp, aggregate.micro.fp, aggregate.micro.fn]).toEqual([9, 1, 5]);
    expect(aggregate.micro.f1).toBeCloseTo(18 / 24, 12);
    expect([aggregate.strict.tp, aggregate.strict.fp, aggregate.strict.fn]).toEqual([8, 2, 6]);
  });

  it('averages per-document F1 for macro, an empty-vs-empty document counting 1', () => {
    expect(aggregate.macro.f1).toBeCloseTo((0.75 + 0.8 + 1 + 0 + 1) / 5, 12);
  });

  it('reports exact-match and parse-failure rates over all documents', () => {
    expect(aggregate.exactMatchRate).toBeCloseTo(2 / 5, 12);
    expect(aggregate.strictExactMatchRate).toBeCloseTo(1 / 5, 12);
    expect([aggregate.parseFailureRate, aggregate.parseFailures]).toEqual([1 / 5, 1]);
  });

  it('breaks counts and the error taxonomy down by collapsed path', () => {
    const units = aggregate.byPath.find((p) => p.path === 'codes[].units')!;
    expect([units.tp, units.fp, units.fn]).toEqual([3, 1, 2]);
    expect(units.errors).toEqual({ missing: 1, hallucinated: 0, wrong_value: 1, format_only: 0 });
    const total = aggregate.byPath.find((p) => p.path === 'total')!;
    expect(total.errors).toMatchObject({ missing: 1, format_only: 1 });
    expect([total.strict.tp, total.strict.fp, total.strict.fn]).toEqual([0, 1, 2]);
    expect(aggregate.byPath.map((p) => p.path)).toEqual(['codes[].cpt', 'codes[].units', 'name', 'total']);
  });

  it('computes line-item exact F1 and the mean item count error', () => {
    // items: truth 2 + 3, predicted 2 + 2, exact 1 + 2
    expect(aggregate.items).toMatchObject({ truth: 5, predicted: 4, exact: 3 });
    expect(aggregate.items.f1).toBeCloseTo(6 / 9, 12);
    expect(aggregate.itemCountError).toBeCloseTo(1 / 5, 12);
  });

  it('has no item figures when no document has line items', () => {
    expect(aggregateExtraction([scoreExtraction({ a: 'x' }, { a: 'x' })]).items.f1).toBeNull();
  });

  it('refuses to aggregate nothing', () => {
    expect(() => aggregateExtraction([])).toThrow(/no documents/);
  });
});

describe('ANLS*', () => {
  it('scores leaves 1 − NLD above the threshold and 0 below', () => {
    expect(anlsLeaf('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 12);
    expect(anlsLeaf('Hello  World', 'hello world')).toBe(1);
    expect(anlsLeaf('abcd', 'wxyz')).toBe(0);
    expect(anlsLeaf('ab', 'ax')).toBe(0.5); // exactly at the threshold is kept
  });

  it('measures edits in code points, not UTF-16 units', () => {
    expect(levenshteinCodePoints('a😀b', 'ab')).toBe(1);
    expect(anlsLeaf('😀😀', '😀x')).toBe(0.5);
  });

  it('follows the reference implementation on objects and lists', () => {
    expect(anlsStar({ a: 'kitten', b: 'x' }, { a: 'sitting', b: 'x' })).toBeCloseTo((1 - 3 / 7 + 1) / 2, 12);
    expect(anlsStar(['a', 'b'], ['b', 'a'])).toBe(1);
    expect(anlsStar(['a', 'b'], ['a'])).toBe(0.5);
    expect(anlsStar({ a: 'x' }, { a: 'x', b: null })).toBe(1); // a hallucinated None key is ignored
    expect(anlsStar({ a: 'x' }, { a: 'x', b: 'y' })).toBe(0.5);
    expect(anlsStar({ a: null }, {})).toBe(1);
    expect(anlsStar({}, {})).toBe(1);
  });

  it('is reported for long or text fields only, never for codes', () => {
    const note = 'Patient seen for follow-up of type 2 diabetes, stable.';
    const score = scoreExtraction({ cpt: '99213', note }, { cpt: '99214', note: note.replace('stable', 'stabl') });
    expect(score.anls).toBeCloseTo(1 - 1 / note.length, 12);
    expect(score.fields.find((f) => f.path === 'cpt')?.anls).toBeUndefined();
    expect(scoreExtraction({ cpt: '99213' }, { cpt: '99213' }).anls).toBeNull();
    const text = scoreExtraction({ memo: 'short' }, { memo: 'shirt' }, { comparators: { memo: 'text' } });
    expect(text.anls).toBeCloseTo(0.8, 12);
    expect(text.f1).toBe(0);
  });
});
