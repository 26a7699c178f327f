/**
 * Evidence of a field's value that the selection score does not carry: whether the value passed a check that
 * constrains it. The label match and the role finders score how strongly they picked a place on the page; a
 * value read from there that also parses as the asked type (a number, a date, a yes/no), snaps to an enum or
 * matches the schema's pattern has passed an independent test that a misread or a wrong region mostly fails,
 * while free text passes anything. See docs/local-service.md ("Confidence").
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

/**
 * Penalty on a free-text answer that another field of the document also gave (a patient's name read for the
 * provider's, one address for both parties): one printed text rarely answers two different questions, so at
 * least one of the two is doubtful. Sometimes both are right (the subscriber is the patient), so the penalty
 * is that of a rival reading (AMBIGUITY_FACTOR in extract-fields.ts), on the field with the weaker evidence.
 */
export const SHARED_ANSWER_FACTOR = 0.6;

/** One field's free-text answer and the outcome whose evidence quality it carries, for `penaliseSharedAnswers`. */
export interface FreeTextAnswer {
  text: string;
  outcome: { quality: number };
}

/** Letters and digits only, lower case: the same answer however it was spaced, punctuated or cased. */
function answerKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Lowers, in place, the quality of every free-text answer that a field with stronger evidence (or an earlier
 * field, on a tie) also gave; the strongest holder of each answer keeps its quality.
 */
export function penaliseSharedAnswers(answers: FreeTextAnswer[]): void {
  const strongest = new Map<string, FreeTextAnswer>();
  for (const answer of answers) {
    const key = answerKey(answer.text);
    if (!key) continue;
    const held = strongest.get(key);
    if (!held || answer.outcome.quality > held.outcome.quality) strongest.set(key, answer);
  }
  for (const answer of answers) {
    const held = strongest.get(answerKey(answer.text));
    if (held && held !== answer) answer.outcome.quality *= SHARED_ANSWER_FACTOR;
  }
}
