/**
 * Evidence of a field's value that the selection score does not carry: whether the value passed a check that
 * constrains it. The label match and the role finders score how strongly they picked a place on the page; a
 * value read from there that also parses as the asked type (a number, a date, a yes/no), snaps to an enum or
 * matches the schema's pattern has passed an independent test that a misread or a wrong region mostly fails,
 * while free text passes anything. See CHANGELOG.md ("Confidence").
 */
import type { ScalarSpec } from './schema-fields.js';

/**
 * Share of the remaining doubt a passed format check removes: an even split between "the check caught what
 * the selection missed" and "the wrong value was of the right type too" (a due date for the invoice date, a
 * subtotal for the total), which no format check can tell apart.
 */
export const FORMAT_CHECK_WEIGHT = 0.5;

/** Whether the field's schema constrains its values: a type other than text, a date format, an enum or a pattern. */
export function constrainsValue(spec: Pick<ScalarSpec, 'type' | 'format' | 'pattern' | 'enum'>): boolean {
  return (
    spec.type !== 'string' ||
    spec.format === 'date' ||
    (spec.enum !== undefined && spec.enum.length > 0) ||
    !!spec.pattern
  );
}

/**
 * The quality of a value that passed its field's format check: `1 − (1 − q)(1 − FORMAT_CHECK_WEIGHT)`, the two
 * pieces of evidence combined as independent (noisy-or), so a strong selection stays strong and a weak one
 * that parses rises half-way towards 1.
 */
export function withFormatCheck(quality: number): number {
  return 1 - (1 - quality) * (1 - FORMAT_CHECK_WEIGHT);
}
