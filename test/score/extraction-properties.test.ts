import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreExtraction } from '../../src/score/extraction/index.js';
import type { Json } from '../../src/types.js';

const lineItem = fc.record(
  {
    cpt: fc.constantFrom('99213', '85025', '36415', '80053', '93000'),
    units: fc.integer({ min: 0, max: 3 }),
    charge: fc.constantFrom(10, 12.5, '12.50', '$1,000.00', 1000, null),
    modifiers: fc.array(fc.constantFrom('25', '59', 'LT'), { maxLength: 2 }),
  },
  { requiredKeys: ['cpt'] },
);
const items = fc.array(lineItem, { maxLength: 6 });

function shuffled<T>(values: T[], order: number[]): T[] {
  return values
    .map((value, i) => ({ value, key: order[i % order.length]! + i / 1000 }))
    .sort((a, b) => a.key - b.key)
    .map((e) => e.value);
}

describe('extraction properties', () => {
  it('F1 and counts do not depend on the order of line items on either side', () => {
    fc.assert(
      fc.property(
        items,
        items,
        fc.array(fc.nat(), { minLength: 1 }),
        fc.array(fc.nat(), { minLength: 1 }),
        (truth, prediction, orderA, orderB) => {
          const base = scoreExtraction({ codes: truth }, { codes: prediction });
          const permuted = scoreExtraction({ codes: shuffled(truth, orderA) }, { codes: shuffled(prediction, orderB) });
          expect([permuted.tp, permuted.fp, permuted.fn, permuted.f1]).toEqual([base.tp, base.fp, base.fn, base.f1]);
          expect([permuted.strict.tp, permuted.strict.fp, permuted.strict.fn]).toEqual([
            base.strict.tp,
            base.strict.fp,
            base.strict.fn,
          ]);
          expect(permuted.items.exact).toBe(base.items.exact);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('precision, recall and F1 stay in [0, 1] for any JSON pair, and fp/fn match the leaf totals', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }), (truth, prediction) => {
        const score = scoreExtraction(truth as Json, prediction as Json);
        for (const value of [
          score.precision,
          score.recall,
          score.f1,
          score.strict.precision,
          score.strict.recall,
          score.strict.f1,
        ]) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        }
        const fn = score.fields.filter((f) => f.verdict === 'fn' || f.verdict === 'fp+fn').length;
        const fp = score.fields.filter((f) => f.verdict === 'fp' || f.verdict === 'fp+fn').length;
        expect([score.fn, score.fp]).toEqual([fn, fp]);
      }),
      { numRuns: 200 },
    );
  });

  it('a prediction identical to the truth is an exact match in both passes', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        const score = scoreExtraction(value as Json, structuredClone(value) as Json);
        expect([score.f1, score.exactMatch, score.strict.f1, score.strict.exactMatch]).toEqual([1, true, 1, true]);
      }),
      { numRuns: 200 },
    );
  });
});
