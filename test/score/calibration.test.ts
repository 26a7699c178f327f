import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binIndex, calibration, computeAuroc } from '../../src/score/calibration/index.js';

const vector = [95, 90, 85, 80, 60, 55, 30, 20].map((confidence, i) => ({
  confidence,
  correct: [1, 1, 0, 1, 1, 0, 0, 0][i]!,
}));

describe('calibration: the docs/metrics/calibration.md vector', () => {
  const result = calibration(vector);

  it('gives Brier 0.1709 and AUROC 0.875', () => {
    expect(result.brier).toBeCloseTo(0.1709375, 12);
    expect(result.auroc).toBe(0.875);
  });

  it('gives ECE 0.2062 with (lo, hi] bins (the default) and 0.2812 with [lo, hi)', () => {
    expect(result.edgeRule).toBe('(lo,hi]');
    expect(result.ece).toBeCloseTo(0.20625, 12);
    expect(calibration(vector, { edgeRule: '[lo,hi)' }).ece).toBeCloseTo(0.28125, 12);
  });

  it('puts 90 in the bin that ends at 0.9 and lists every bin', () => {
    expect(result.bins).toHaveLength(10);
    const bin = result.bins[8]!;
    expect([bin.lo, bin.hi, bin.count, bin.meanConfidence, bin.accuracy]).toEqual([0.8, 0.9, 2, 0.875, 0.5]);
    expect(result.bins[0]).toMatchObject({ count: 0, meanConfidence: null, accuracy: null, gap: null });
  });

  it('computes adaptive ECE over equal-mass bins (one document each here)', () => {
    expect(result.adaptiveBins).toHaveLength(8);
    expect(result.adaptiveEce).toBeCloseTo((0.05 + 0.1 + 0.85 + 0.2 + 0.4 + 0.55 + 0.3 + 0.2) / 8, 12);
  });

  it('finds the auto-accept threshold for 0.95: 90, accepting a quarter of documents', () => {
    expect(result.autoAccept).toEqual({
      threshold: 90,
      accepted: 2,
      coverage: 0.25,
      accuracy: 1,
      risk: 0,
      target: 0.95,
    });
    // Accuracy is not monotone in the threshold: 85 fails 0.75 but 60 (4 of 5 correct) passes and is lower.
    expect(calibration(vector, { target: 0.75 }).autoAccept).toMatchObject({
      threshold: 60,
      coverage: 5 / 8,
      accuracy: 0.8,
    });
  });

  it('traces risk against coverage from the highest threshold down', () => {
    expect(result.riskCoverage.map((p) => [p.threshold, p.accepted])).toEqual([
      [95, 1],
      [90, 2],
      [85, 3],
      [80, 4],
      [60, 5],
      [55, 6],
      [30, 7],
      [20, 8],
    ]);
    expect(result.riskCoverage[2]!.accuracy).toBeCloseTo(2 / 3, 12);
  });
});

describe('calibration edge cases', () => {
  it('puts 0 in the first bin and 100 in the last under both edge rules', () => {
    expect([binIndex(0, 10, '(lo,hi]'), binIndex(100, 10, '(lo,hi]')]).toEqual([0, 9]);
    expect([binIndex(0, 10, '[lo,hi)'), binIndex(100, 10, '[lo,hi)')]).toEqual([0, 9]);
    expect([binIndex(90.0001, 10, '(lo,hi]'), binIndex(89.9999, 10, '[lo,hi)')]).toEqual([9, 8]);
  });

  it('has no AUROC when every document is correct, or none is', () => {
    expect(
      calibration([
        { confidence: 90, correct: 1 },
        { confidence: 10, correct: 1 },
      ]).auroc,
    ).toBeNull();
    expect(
      calibration([
        { confidence: 90, correct: 0 },
        { confidence: 10, correct: false },
      ]).auroc,
    ).toBeNull();
  });

  it('counts tied confidences as half in AUROC', () => {
    expect(computeAuroc([0.5, 0.5], [true, false])).toBe(0.5);
    expect(computeAuroc([0.9, 0.5, 0.5], [true, true, false])).toBe(0.75);
  });

  it('accepts continuous correctness (field F1) and uses only fully correct documents as AUROC positives', () => {
    const result = calibration([
      { confidence: 90, correct: 1 },
      { confidence: 80, correct: 0.9 },
      { confidence: 70, correct: 0.5 },
    ]);
    expect(result.brier).toBeCloseTo((0.01 + 0.01 + 0.04) / 3, 12);
    expect(result.auroc).toBe(1);
    expect(result.autoAccept).toMatchObject({ threshold: 80, accuracy: 0.95 });
  });

  it('returns no auto-accept threshold when no threshold reaches the target', () => {
    expect(calibration([{ confidence: 99, correct: 0.5 }]).autoAccept).toBeNull();
  });

  it('rejects confidences outside 0–100, correctness outside [0, 1], and no items', () => {
    expect(() => calibration([{ confidence: 0.9 * 1000, correct: 1 }])).toThrow(/outside 0–100/);
    expect(() => calibration([{ confidence: 50, correct: 2 }])).toThrow(/outside \[0, 1\]/);
    expect(() => calibration([])).toThrow(/no documents/);
    expect(() => calibration(vector, { bins: 0 })).toThrow(/bins/);
  });

  it('keeps every figure in range for any input', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            confidence: fc.integer({ min: 0, max: 100 }),
            correct: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
          { minLength: 1, maxLength: 60 },
        ),
        fc.integer({ min: 1, max: 20 }),
        (items, bins) => {
          const result = calibration(items, { bins });
          for (const value of [result.ece, result.adaptiveEce, result.brier, result.auroc ?? 0.5]) {
            expect(value).toBeGreaterThanOrEqual(0);
            expect(value).toBeLessThanOrEqual(1);
          }
          expect(result.bins.reduce((s, b) => s + b.count, 0)).toBe(items.length);
          expect(result.riskCoverage.at(-1)!.coverage).toBe(1);
        },
      ),
      { numRuns: 200 },
    );
  });
});
