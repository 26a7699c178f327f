/**
 * The boundary check every scorer applies to what it returns (STYLE.md "Check outputs at the boundary"): a
 * score outside [0, 1] or not finite is a bug in the scorer or its input, never a number to print.
 */
import { DocbenchError } from '../../errors.js';

/** Returns `value` when it is a finite number in [0, 1]; throws SCORE_INVALID naming the metric otherwise. */
export function checkUnitScore(metric: string, value: number): number {
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw new DocbenchError('SCORE_INVALID', `${metric}: computed ${String(value)}, outside [0, 1]`, {
      hint: 'This is a scorer bug or corrupt input; report it with the document that produced it.',
    });
  }
  return value;
}

/** As {@link checkUnitScore}, letting `null` (metric undefined for this input) through. */
export function checkOptionalUnitScore(metric: string, value: number | null): number | null {
  return value === null ? null : checkUnitScore(metric, value);
}

/** Returns `value` when it is a finite number ≥ 0 (counts, edits, milliseconds); throws SCORE_INVALID otherwise. */
export function checkNonNegative(metric: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new DocbenchError('SCORE_INVALID', `${metric}: computed ${String(value)}, expected a finite number ≥ 0`, {
      hint: 'This is a scorer bug or corrupt input; report it with the document that produced it.',
    });
  }
  return value;
}
