/**
 * The boundary check every scorer applies to what it returns (STYLE.md: "check outputs at the boundary"):
 * a NaN or an out-of-range figure is a bug in docbench, never a number to print.
 */
import { DocbenchError } from '../../errors.js';

/** Inclusive range a metric must fall in. */
export interface MetricRange {
  min?: number;
  max?: number;
}

/**
 * Returns `value` when it is finite and inside `[min, max]`; otherwise throws DocbenchError `SCORE_INVALID`
 * naming the metric.
 */
export function checkMetric(name: string, value: number, range: MetricRange = {}): number {
  const { min = -Infinity, max = Infinity } = range;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new DocbenchError('SCORE_INVALID', `${name} = ${String(value)} is not a finite number in [${min}, ${max}]`, {
      hint: 'this is a bug in the docbench scorer; please report it with the inputs that produced it',
    });
  }
  return value;
}

/** `checkMetric` for a value in [0, 1] (a rate, a probability, a score). */
export function checkUnit(name: string, value: number): number {
  return checkMetric(name, value, { min: 0, max: 1 });
}
