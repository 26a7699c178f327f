/** Field-value normalisation for the extraction scorer: comparators, exact decimals, dates, string steps. */
export { createComparator, parseBoolean, MONEY_TOLERANCE } from './comparator.js';
export type { Canonical, Comparator, Scalar } from './comparator.js';
export { parseDecimal, decimalFromNumber, decimalsWithin, formatDecimal } from './decimal.js';
export type { Decimal } from './decimal.js';
export { parseDate, DATE_FORMATS, TWO_DIGIT_YEAR_PIVOT } from './date.js';
export { applyStringSteps, isBlank } from './string-steps.js';
export type { StringStepName } from './string-steps.js';
