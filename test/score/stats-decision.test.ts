/**
 * The decision rule (docs/metrics/comparison.md "Decision rule") against independent computations: exact
 * binomial tails in BigInt arithmetic, and Holm applied by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  adjustHeadlineFamilies,
  choosePrimaryMetric,
  fewestSignificantDocuments,
  holmAdjust,
  signTest,
  smallestPossibleP,
} from '../../src/score/stats/index.js';

/** Exact two-sided sign test p, min(1, 2 · Σ_{i ≤ min} C(n, i) / 2^n), with integers only until the last division. */
function exactSignP(wins: number, losses: number): number {
  const n = BigInt(wins + losses);
  const k = BigInt(Math.min(wins, losses));
  let choose = 1n;
  let tail = 0n;
  for (let i = 0n; i <= k; i++) {
    if (i > 0n) choose = (choose * (n - i + 1n)) / i;
    tail += choose;
  }
  // 2 · tail / 2^n, scaled to keep 15 significant digits in a double.
  const scale = 10n ** 18n;
  const scaled = (2n * tail * scale) / 2n ** n;
  return Math.min(1, Number(scaled) / 1e18);
}

describe('the decision rule', () => {
  it('floors p at the exact sign test of k documents all one way, on small and large k', () => {
    for (const k of [1, 5, 6, 10, 50]) expect(smallestPossibleP(k)).toBeCloseTo(exactSignP(0, k), 15);
    expect(smallestPossibleP(500) / (2 * 0.5 ** 500)).toBeCloseTo(1, 12);
  });

  it('decides with the exact sign test on small and large n', () => {
    for (const [wins, losses] of [
      [0, 6],
      [1, 9],
      [3, 7],
      [40, 60],
      [230, 270],
      [2, 498],
    ] as const) {
      const exact = exactSignP(wins, losses);
      if (exact > 1e-15) expect(signTest(wins, losses) / exact).toBeCloseTo(1, 9);
      else expect(signTest(wins, losses)).toBeLessThan(1e-15);
    }
  });

  it('needs 6 documents at α = 0.05 (5 give 0.0625), 7 at 0.02, 8 at 0.01, 5 at 0.1: the smallest k with 2 · 0.5^k ≤ α', () => {
    for (const alpha of [0.1, 0.05, 0.02, 0.01, 0.001]) {
      const k = fewestSignificantDocuments(alpha);
      expect(exactSignP(0, k)).toBeLessThanOrEqual(alpha);
      expect(exactSignP(0, k - 1)).toBeGreaterThan(alpha);
    }
    expect([0.1, 0.05, 0.02, 0.01].map(fewestSignificantDocuments)).toEqual([5, 6, 7, 8]);
  });

  it('decides the primary metric on its own p, the others by Holm among themselves; a secondary added or removed changes nothing for the primary', () => {
    const p = [0.03125, 0.03125, 1];
    expect(adjustHeadlineFamilies(p, 0)).toEqual([
      { p: 0.03125, family: 'primary' },
      { p: holmAdjust([0.03125, 1])[0], family: 'secondary' },
      { p: 1, family: 'secondary' },
    ]);
    expect(adjustHeadlineFamilies([0.03125, 0.03125], 0)[0]).toEqual({ p: 0.03125, family: 'primary' });
    expect(adjustHeadlineFamilies([0.5, 0.03125], 1)[1]).toEqual({ p: 0.03125, family: 'primary' });
    // No primary: one Holm family of all.
    expect(adjustHeadlineFamilies([0.01, 0.04], -1).map((r) => r.p)).toEqual(holmAdjust([0.01, 0.04]));
  });

  it('picks field F1 of the first mode, else markdown similarity, else the first metric; refuses a configured metric not computed', () => {
    expect(
      choosePrimaryMetric(
        ['extraction.fast.f1', 'extraction.fast.exact_match_rate', 'extraction.slow.f1', 'markdown.similarity'],
        null,
      ),
    ).toBe('extraction.fast.f1');
    expect(choosePrimaryMetric(['markdown.similarity', 'regions.f1_at50'], null)).toBe('markdown.similarity');
    expect(choosePrimaryMetric(['regions.f1_at50'], null)).toBe('regions.f1_at50');
    expect(choosePrimaryMetric([], null)).toBeNull();
    expect(choosePrimaryMetric(['extraction.slow.f1', 'markdown.similarity'], 'markdown.similarity')).toBe(
      'markdown.similarity',
    );
    expect(() => choosePrimaryMetric(['markdown.similarity'], 'extraction.slow.f1')).toThrow(
      /gate\.diff\.primary: "extraction\.slow\.f1" was not computed/,
    );
  });
});
