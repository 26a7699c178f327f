/**
 * The boundary check every scorer applies to what it returns (CONTRIBUTING.md "Habits": checked "at the boundary"):
 * a NaN or an out-of-range figure is a bug in a scorer or corrupt input, never a number to print.
 */
import { DocbenchError } from '../../errors.js';

/** Inclusive range a metric must fall in; an absent bound is unbounded. */
export interface MetricRange {
  min?: number;
  max?: number;
}

/**
 * Returns `value` when it is finite and inside `[min, max]`; otherwise throws DocbenchError `SCORE_INVALID`
 * naming the metric.
 * @example checkMetric('latency p95', ms, { min: 0 }) // counts, edits, milliseconds
 */
export function checkMetric(name: string, value: number, range: MetricRange = {}): number {
  const { min = -Infinity, max = Infinity } = range;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new DocbenchError(
      'SCORE_INVALID',
      `${name}: computed ${String(value)}, expected a finite number${describeRange(min, max)}`,
      {
        hint: 'This is a scorer bug or corrupt input; report it with the document that produced it.',
      },
    );
  }
  return value;
}

/** {@link checkMetric} for a value in [0, 1] (a score, a rate, a probability). */
export function checkUnit(name: string, value: number): number {
  return checkMetric(name, value, { min: 0, max: 1 });
}

/** {@link checkUnit}, letting `null` (the metric is undefined for this input) through. */
export function checkOptionalUnit(name: string, value: number | null): number | null {
  return value === null ? null : checkUnit(name, value);
}

function describeRange(min: number, max: number): string {
  if (min === -Infinity) return max === Infinity ? '' : ` ≤ ${max}`;
  return max === Infinity ? ` ≥ ${min}` : ` in [${min}, ${max}]`;
}
