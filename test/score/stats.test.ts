import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateExtraction, scoreExtraction } from '../../src/score/extraction/index.js';
import {
  compareSystems,
  createMicroF1Delta,
  createRandom,
  erfc,
  holmAdjust,
  pairByDocumentId,
  pairedBootstrap,
  quantileSorted,
  signTest,
  wilcoxonSignedRank,
} from '../../src/score/stats/index.js';
import type { JsonObject } from '../../src/types.js';

/** Two-sided exact p by enumerating all 2^n sign assignments: an independent check of the DP. */
function bruteForceWilcoxonP(ranks: number[], wPlus: number): number {
  let below = 0;
  let above = 0;
  const total = 2 ** ranks.length;
  for (let mask = 0; mask < total; mask++) {
    let sum = 0;
    ranks.forEach((r, i) => {
      if (mask & (1 << i)) sum += r;
    });
    if (sum <= wPlus + 1e-9) below++;
    if (sum >= wPlus - 1e-9) above++;
  }
  return Math.min(1, (2 * Math.min(below, above)) / total);
}

describe('signTest (exact binomial)', () => {
  it('matches hand-computed values', () => {
    expect(signTest(9, 1)).toBeCloseTo(22 / 1024, 14);
    expect(signTest(0, 10)).toBeCloseTo(2 / 1024, 14);
    expect(signTest(5, 5)).toBe(1);
    expect(signTest(0, 0)).toBe(1);
    expect(signTest(3, 1)).toBeCloseTo(0.625, 14);
  });

  it('stays finite for large n', () => {
    expect(signTest(1000, 1000)).toBe(1);
    const p = signTest(600, 400);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-9);
  });
});

describe('wilcoxonSignedRank', () => {
  // scipy.stats.wilcoxon documentation example (Cushny & Peebles via Fisher): statistic 24, p 0.041259765625.
  const d = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];

  it('reproduces the scipy documentation example exactly', () => {
    const result = wilcoxonSignedRank(d);
    expect(result).toMatchObject({ n: 15, wPlus: 96, wMinus: 24, method: 'exact' });
    expect(result.p).toBeCloseTo(0.041259765625, 14);
  });

  it('drops zero differences (Wilcoxon convention)', () => {
    const result = wilcoxonSignedRank([...d, 0, 0, 1e-15]);
    expect(result).toMatchObject({ n: 15, zeros: 3, wPlus: 96 });
    expect(result.p).toBeCloseTo(0.041259765625, 14);
  });

  it('handles tied magnitudes exactly, as full enumeration does', () => {
    const ties = [1, -1, 2, 2, -2, 3, 4, 4, -5, 6];
    const result = wilcoxonSignedRank(ties);
    // |d| ranks: 1,1 → 1.5; 2,2,2 → 4; 3 → 6; 4,4 → 7.5; 5 → 9; 6 → 10
    const ranks = [1.5, 1.5, 4, 4, 4, 6, 7.5, 7.5, 9, 10];
    expect(result.wPlus).toBe(1.5 + 4 + 4 + 6 + 7.5 + 7.5 + 10);
    expect(result.p).toBeCloseTo(bruteForceWilcoxonP(ranks, result.wPlus), 12);
  });

  it('uses the normal approximation with continuity correction above 25 pairs', () => {
    const result = wilcoxonSignedRank(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(result.method).toBe('normal');
    // z = (465 − 232.5 − 0.5) / sqrt(2363.75); p = erfc(z/√2) per Python's math.erfc
    expect(result.p / 1.825371456361214e-6).toBeCloseTo(1, 5);
    const normal = wilcoxonSignedRank(d, { exactMaxN: 0 });
    expect(normal.p).toBeCloseTo(0.043772323763041195, 6);
  });

  it('agrees with the exact distribution near n = 25 to within 0.01', () => {
    const random = createRandom(7);
    const sample = Array.from({ length: 26 }, () => random() - 0.4);
    const exact = wilcoxonSignedRank(sample, { exactMaxN: 26 });
    const normal = wilcoxonSignedRank(sample);
    expect(exact.method).toBe('exact');
    expect(Math.abs(exact.p - normal.p)).toBeLessThan(0.01);
  });

  it('gives p = 1 when every difference is zero', () => {
    expect(wilcoxonSignedRank([0, 0])).toMatchObject({ n: 0, p: 1, method: 'none' });
  });
});

describe('holmAdjust', () => {
  it('matches the textbook step-down adjustment, in input order', () => {
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    for (const [i, expected] of [0.03, 0.06, 0.06, 0.02].entries()) expect(adjusted[i]).toBeCloseTo(expected, 14);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('rejects values that are not p-values', () => {
    expect(() => holmAdjust([1.2])).toThrow(/not in \[0, 1\]/);
  });
});

describe('erfc', () => {
  it('is accurate to 1.2e-7 relative', () => {
    expect(erfc(1) / 0.15729920705028513).toBeCloseTo(1, 6);
    expect(erfc(3) / 2.2090496998585438e-5).toBeCloseTo(1, 6);
    expect(erfc(-1)).toBeCloseTo(2 - 0.15729920705028513, 7);
  });
});

describe('pairedBootstrap and compareSystems', () => {
  it('computes type-7 quantiles', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
  });

  it('is reproducible with a seed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 40 }),
        fc.integer(),
        (values, seed) => {
          const b = values.map((v) => v / 2);
          const first = compareSystems(values, b, { seed, resamples: 200 });
          const second = compareSystems(values, b, { seed, resamples: 200 });
          expect(second).toEqual(first);
          expect(first.ci95[0]).toBeLessThanOrEqual(first.ci95[1]);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('gives a degenerate interval and p = 1 for identical systems', () => {
    const values = [0.2, 0.5, 0.9, 1];
    const result = compareSystems(values, values);
    expect(result).toMatchObject({
      delta: 0,
      ci95: [0, 0],
      wins: 0,
      losses: 0,
      ties: 4,
      pSign: 1,
      pWilcoxon: 1,
      resamples: 10_000,
      seed: 1,
    });
  });

  it('counts wins beyond the tie tolerance only (ties within 0.005, as written)', () => {
    const result = compareSystems([0.505, 0.51, 0.4, 0.9], [0.5, 0.5, 0.5, 0.9]);
    expect([result.wins, result.losses, result.ties]).toEqual([1, 1, 2]);
  });

  it('a constant improvement has that delta, a point interval and the sign-test p of n wins', () => {
    const b = Array.from({ length: 12 }, (_, i) => i / 20);
    const a = b.map((v) => v + 0.25);
    const result = compareSystems(a, b, { resamples: 500 });
    expect(result.delta).toBeCloseTo(0.25, 12);
    expect(result.ci95[0]).toBeCloseTo(0.25, 12);
    expect(result.ci95[1]).toBeCloseTo(0.25, 12);
    expect(result.wins).toBe(12);
    expect(result.pSign).toBeCloseTo(2 / 4096, 14);
    expect(result.pWilcoxon).toBeCloseTo(2 / 4096, 14);
  });

  it('recomputes micro F1 from summed counts on each resample', () => {
    const truths: JsonObject[] = [{ a: 'x', b: 'y' }, { a: 'x' }, { a: 'x', b: 'y', c: 'z' }];
    const runA = [
      scoreExtraction(truths[0]!, { a: 'x', b: 'y' }),
      scoreExtraction(truths[1]!, {}),
      scoreExtraction(truths[2]!, { a: 'x' }),
    ];
    const runB = [
      scoreExtraction(truths[0]!, { a: 'x' }),
      scoreExtraction(truths[1]!, { a: 'x' }),
      scoreExtraction(truths[2]!, {}),
    ];
    const statistic = createMicroF1Delta(runA, runB);
    const result = compareSystems(
      runA.map((d) => d.f1),
      runB.map((d) => d.f1),
      { statistic, resamples: 300 },
    );
    expect(result.delta).toBeCloseTo(aggregateExtraction(runA).micro.f1 - aggregateExtraction(runB).micro.f1, 12);
    const direct = pairedBootstrap(3, statistic, { resamples: 300 });
    expect(result.ci95).toEqual(direct.interval);
  });

  it('rejects unpaired or empty input', () => {
    expect(() => compareSystems([1], [1, 2])).toThrow(/A has 1 values, B has 2/);
    expect(() => compareSystems([], [])).toThrow(/no documents/);
    expect(() => compareSystems([Number.NaN], [1])).toThrow(/non-finite/);
  });

  it('pairs by document id in sorted order and lists the unpaired ids', () => {
    const paired = pairByDocumentId(
      { d2: 0.5, d1: 0.9, d3: 0.1 },
      new Map([
        ['d1', 0.8],
        ['d2', 0.4],
        ['d4', 1],
      ]),
    );
    expect(paired).toEqual({ ids: ['d1', 'd2'], a: [0.9, 0.5], b: [0.8, 0.4], onlyInA: ['d3'], onlyInB: ['d4'] });
  });
});
