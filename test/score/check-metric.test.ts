import { describe, expect, it } from 'vitest';
import { DocbenchError } from '../../src/errors.js';
import { checkMetric, checkOptionalUnit, checkUnit } from '../../src/score/shared/check-metric.js';

describe('the metric boundary check', () => {
  it('passes finite values inside the range through unchanged, bounds included', () => {
    expect(checkUnit('rate', 0)).toBe(0);
    expect(checkUnit('rate', 1)).toBe(1);
    expect(checkMetric('edits', 0, { min: 0 })).toBe(0);
    expect(checkMetric('delta', -3.5)).toBe(-3.5);
    expect(checkOptionalUnit('mean IoU', null)).toBeNull();
    expect(checkOptionalUnit('mean IoU', 0.25)).toBe(0.25);
  });

  it('rejects values outside the range or not finite with SCORE_INVALID, naming the metric and the range', () => {
    expect(() => checkMetric('latency p95', -1, { min: 0 })).toThrowError(
      /latency p95: computed -1, expected a finite number ≥ 0/,
    );
    expect(() => checkUnit('brier', 1.0000001)).toThrowError(
      /brier: computed 1\.0000001, expected a finite number in \[0, 1\]/,
    );
    expect(() => checkOptionalUnit('TEDS (document mean)', Number.NaN)).toThrowError(/TEDS \(document mean\)/);
    expect(() => checkMetric('bootstrap estimate', Number.POSITIVE_INFINITY)).toThrowError(/expected a finite number$/);
    try {
      checkMetric('holm-adjusted p', 2, { max: 1 });
    } catch (error) {
      expect(error).toBeInstanceOf(DocbenchError);
      expect((error as DocbenchError).code).toBe('SCORE_INVALID');
      expect((error as DocbenchError).message).toContain('≤ 1');
    }
    expect.assertions(7);
  });
});
