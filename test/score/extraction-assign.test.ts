import fc from 'fast-check';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { assignMaximum } from '../../src/score/extraction/assign.js';

// munkres-js (untyped CommonJS) is the oracle: the hand-written solver must reach the same optimum.
const munkres = createRequire(import.meta.url)('munkres-js') as (cost: number[][]) => [number, number][];

function oracleMaximum(weights: number[][], columns: number): number {
  const size = Math.max(weights.length, columns);
  const max = Math.max(0, ...weights.flat());
  const cost = Array.from({ length: size }, (_, i) => Array.from({ length: size }, (_, j) => max - (weights[i]?.[j] ?? 0)));
  return munkres(cost)
    .filter(([i, j]) => i < weights.length && j < columns)
    .reduce((sum, [i, j]) => sum + weights[i]![j]!, 0);
}

describe('assignMaximum', () => {
  it('finds the maximum-weight one-to-one assignment', () => {
    expect(assignMaximum([[1, 2], [2, 1]], 2)).toEqual([[0, 1], [1, 0]]);
    expect(assignMaximum([[5], [7], [6]], 1)).toEqual([[1, 0]]);
    expect(assignMaximum([], 3)).toEqual([]);
  });

  it('reaches the same total as munkres-js on random rectangular, tie-heavy matrices', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }).chain((rows) =>
          fc.integer({ min: 1, max: 7 }).chain((columns) =>
            fc.tuple(fc.constant(columns), fc.array(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: columns, maxLength: columns }), { minLength: rows, maxLength: rows })),
          ),
        ),
        ([columns, weights]) => {
          const pairs = assignMaximum(weights, columns);
          expect(pairs).toHaveLength(Math.min(weights.length, columns));
          expect(new Set(pairs.map(([i]) => i)).size).toBe(pairs.length);
          expect(new Set(pairs.map(([, j]) => j)).size).toBe(pairs.length);
          const total = pairs.reduce((sum, [i, j]) => sum + weights[i]![j]!, 0);
          expect(total).toBe(oracleMaximum(weights, columns));
        },
      ),
      { numRuns: 300 },
    );
  });
});
