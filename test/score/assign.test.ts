import fc from 'fast-check';
import computeMunkres from 'munkres-js';
import { describe, expect, it } from 'vitest';
import { assignMaximum, assignMaximumPacked, assignMinimum } from '../../src/score/shared/assign.js';
import { assignMaximumOracle, assignMinimumOracle } from './oracle/index.js';

// munkres-js is the oracle: the hand-written solver must reach the same optimum.
function oracleMaximum(weights: number[][], columns: number): number {
  const size = Math.max(weights.length, columns);
  const max = Math.max(0, ...weights.flat());
  const cost = Array.from({ length: size }, (_, i) =>
    Array.from({ length: size }, (_, j) => max - (weights[i]?.[j] ?? 0)),
  );
  return computeMunkres(cost)
    .filter(([i, j]) => i < weights.length && j < columns)
    .reduce((sum, [i, j]) => sum + weights[i]![j]!, 0);
}

/** munkres-js pads rectangular matrices itself (with 0) and returns only pairs inside the original one. */
function oracleMinimum(costs: number[][]): number {
  return computeMunkres(costs).reduce((sum, [i, j]) => sum + costs[i]![j]!, 0);
}

/** Rectangular matrices of 1–7 rows and columns. */
function matrices(cell: fc.Arbitrary<number>): fc.Arbitrary<[number, number[][]]> {
  return fc
    .integer({ min: 1, max: 7 })
    .chain((rows) =>
      fc
        .integer({ min: 1, max: 7 })
        .chain((columns) =>
          fc.tuple(
            fc.constant(columns),
            fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { minLength: rows, maxLength: rows }),
          ),
        ),
    );
}

function expectOneToOne(pairs: [number, number][], rows: number, columns: number): void {
  expect(pairs).toHaveLength(Math.min(rows, columns));
  expect(new Set(pairs.map(([i]) => i)).size).toBe(pairs.length);
  expect(new Set(pairs.map(([, j]) => j)).size).toBe(pairs.length);
  expect(pairs.map(([i]) => i)).toEqual([...pairs.map(([i]) => i)].sort((a, b) => a - b));
}

describe('assignMaximum', () => {
  it('finds the maximum-weight one-to-one assignment', () => {
    expect(
      assignMaximum(
        [
          [1, 2],
          [2, 1],
        ],
        2,
      ),
    ).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(assignMaximum([[5], [7], [6]], 1)).toEqual([[1, 0]]);
    expect(assignMaximum([], 3)).toEqual([]);
  });

  it('reaches the same total as munkres-js on random rectangular, tie-heavy matrices', () => {
    fc.assert(
      fc.property(matrices(fc.integer({ min: 0, max: 3 })), ([columns, weights]) => {
        const pairs = assignMaximum(weights, columns);
        expect(pairs).toHaveLength(Math.min(weights.length, columns));
        expect(new Set(pairs.map(([i]) => i)).size).toBe(pairs.length);
        expect(new Set(pairs.map(([, j]) => j)).size).toBe(pairs.length);
        const total = pairs.reduce((sum, [i, j]) => sum + weights[i]![j]!, 0);
        expect(total).toBe(oracleMaximum(weights, columns));
      }),
      { numRuns: 300 },
    );
  });
});

describe('assignMinimum', () => {
  it('finds the minimum-cost one-to-one assignment, in row order, for tall and wide matrices', () => {
    expect(
      assignMinimum([
        [0.9, 0.1],
        [0.2, 0.8],
      ]),
    ).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(assignMinimum([[0.5], [0.1], [0.3]])).toEqual([[1, 0]]);
    expect(assignMinimum([[0.4, 0, 0.7]])).toEqual([[0, 1]]);
    expect(
      assignMinimum([
        [1, 0],
        [0, 1],
        [0.5, 0.5],
      ]),
    ).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('pairs nothing when either side is empty', () => {
    expect(assignMinimum([])).toEqual([]);
    expect(assignMinimum([[], []])).toEqual([]);
    expect(assignMinimum([], 4)).toEqual([]);
  });

  it('reaches the same total as munkres-js on random rectangular matrices of integer and fractional costs', () => {
    // Costs as the scorers pass them (1 − IoU, 1 − TEDS: fractions in [0, 1]) and tie-heavy integer ones.
    const cell = fc.oneof(
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 0, max: 1000 }).map((k) => k / 1000),
    );
    fc.assert(
      fc.property(matrices(cell), ([columns, costs]) => {
        const pairs = assignMinimum(costs);
        expectOneToOne(pairs, costs.length, columns);
        const total = pairs.reduce((sum, [i, j]) => sum + costs[i]![j]!, 0);
        expect(total).toBeCloseTo(oracleMinimum(costs), 9);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the solver against its frozen copy (test/score/oracle)', () => {
  // Scorers report which pair was chosen among equal optima (paths in field results), so a faster solver must
  // return the very same pairs, not just the same total.
  const cell = fc.oneof(
    fc.integer({ min: 0, max: 2 }),
    fc.integer({ min: 0, max: 1000 }).map((k) => k / 1000),
    fc.constantFrom(0.1, 0.2, 0.3, 1 / 3, 2 / 3, 1e-9, 1 + 1e-9),
  );
  const sized = (size: number) =>
    fc.integer({ min: 1, max: size }).chain((rows) =>
      fc.integer({ min: 1, max: size }).chain((columns) =>
        fc.tuple(
          fc.constant(columns),
          fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), {
            minLength: rows,
            maxLength: rows,
          }),
        ),
      ),
    );

  it('returns the same pairs, ties included, for maximum and minimum, on small and larger matrices', () => {
    fc.assert(
      fc.property(fc.oneof(sized(7), sized(30)), ([columns, matrix]) => {
        expect(assignMaximum(matrix, columns)).toEqual(assignMaximumOracle(matrix, columns));
        expect(assignMinimum(matrix, columns)).toEqual(assignMinimumOracle(matrix, columns));
      }),
      { numRuns: 300 },
    );
  });

  it('assignMaximumPacked pairs exactly as assignMaximum on the same weights', () => {
    fc.assert(
      fc.property(sized(9), ([columns, matrix]) => {
        const packed = Float64Array.from(matrix.flat());
        expect(assignMaximumPacked(packed, matrix.length, columns)).toEqual(assignMaximum(matrix, columns));
      }),
      { numRuns: 200 },
    );
    expect(assignMaximumPacked(new Float64Array(0), 0, 3)).toEqual([]);
  });
});
