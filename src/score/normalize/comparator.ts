/**
 * One comparator per field: how two values of that field are compared in the normalised pass
 * (docs/metrics/extraction.md). Each value is turned once into a canonical form; equality is then cheap, which matters for
 * the Hungarian matrix of line items (n × m pairs).
 */
import { DocbenchError } from '../../errors.js';
import type { ComparatorSpec, ComparatorType, DateLocale } from '../../types.js';
import { parseDate } from './date.js';
import { decimalFromNumber, decimalsWithin, formatDecimal, parseDecimal, type Decimal } from './decimal.js';
import { applyStringSteps, type StringStepName } from './string-steps.js';

/** A JSON scalar as it reaches a comparator (empties are handled before). */
export type Scalar = string | number | boolean;

/** Default absolute tolerance of the money comparator (docs/metrics/extraction.md). */
export const MONEY_TOLERANCE = 0.005;

/** The canonical form of one value: a typed parse when it succeeded, and the string-normalised text. */
export interface Canonical {
  /** Decimal (number/money), ISO date, boolean, or `type:value` (exact); null when the value did not parse. */
  parsed: Decimal | string | boolean | null;
  /** The value after the string steps: what is compared when either side did not parse. */
  text: string;
}

/** A ready comparator for one field path. */
export interface Comparator {
  type: ComparatorType;
  /** The normalisation applied, as named steps in order: recorded with every score. */
  steps: string[];
  canonicalize(value: Scalar): Canonical;
  equal(a: Canonical, b: Canonical): boolean;
  /** The canonical value as shown in reports (e.g. `-12.5`, `2024-03-05`, `E119`). */
  display(value: Canonical): string;
}

const TEXT_STEPS: StringStepName[] = ['nfkc', 'trim', 'collapse-whitespace', 'casefold'];
const TEXT_STEPS_CASED: StringStepName[] = ['nfkc', 'trim', 'collapse-whitespace'];
const PARSE_PREP: StringStepName[] = ['nfkc', 'trim', 'collapse-whitespace'];

/**
 * Builds the comparator for a spec. Tolerance must be a finite number ≥ 0.
 * @throws DocbenchError `DATASET_INVALID` for a negative or non-finite tolerance.
 */
export function createComparator(spec: ComparatorSpec, locale: DateLocale = 'US'): Comparator {
  switch (spec.type) {
    case 'exact':
      return createExactComparator();
    case 'string':
    case 'text':
      return createTextComparator(spec.type, spec.caseSensitive ? TEXT_STEPS_CASED : TEXT_STEPS);
    case 'code': {
      const steps: StringStepName[] = ['nfkc', 'trim'];
      if (!spec.caseSensitive) steps.push('uppercase');
      if (spec.ignoreDots) steps.push('strip-dots');
      return createTextComparator('code', steps);
    }
    case 'number':
    case 'money':
      return createNumberComparator(spec, locale);
    case 'date':
      return createParsedComparator(
        'date',
        `parse-date[${locale}]`,
        (text) => parseDate(text, locale),
        (parsed) => String(parsed),
      );
    case 'boolean':
      return createParsedComparator('boolean', 'parse-boolean', parseBoolean, (parsed) => String(parsed));
    default:
      throw new DocbenchError(
        'DATASET_INVALID',
        `unknown comparator type "${String((spec as { type: unknown }).type)}"`,
        {
          hint: 'use one of exact, string, number, money, date, boolean, code, text in dataset.json comparators',
        },
      );
  }
}

function toText(value: Scalar): string {
  return typeof value === 'string' ? value : String(value);
}

function createExactComparator(): Comparator {
  return {
    type: 'exact',
    steps: ['typed-equality'],
    canonicalize: (value) => ({ parsed: `${typeof value}:${toText(value)}`, text: toText(value) }),
    equal: (a, b) => a.parsed === b.parsed,
    display: (value) => value.text,
  };
}

function createTextComparator(type: ComparatorType, steps: StringStepName[]): Comparator {
  return {
    type,
    steps: ['to-string', ...steps],
    canonicalize: (value) => ({ parsed: null, text: applyStringSteps(toText(value), steps) }),
    equal: (a, b) => a.text === b.text,
    display: (value) => value.text,
  };
}

function createNumberComparator(spec: ComparatorSpec, locale: DateLocale): Comparator {
  const toleranceValue = spec.tolerance ?? (spec.type === 'money' ? MONEY_TOLERANCE : 0);
  const tolerance = Number.isFinite(toleranceValue) && toleranceValue >= 0 ? decimalFromNumber(toleranceValue) : null;
  if (!tolerance) {
    throw new DocbenchError('DATASET_INVALID', `comparator tolerance ${String(spec.tolerance)} is not a number ≥ 0`, {
      hint: 'set "tolerance" in dataset.json comparators to a non-negative number such as 0.005',
    });
  }
  const parse = (value: Scalar): Decimal | null => {
    if (typeof value === 'number') return decimalFromNumber(value);
    if (typeof value === 'boolean') return null;
    return parseDecimal(applyStringSteps(value, PARSE_PREP), locale);
  };
  return {
    type: spec.type,
    steps: [
      'to-string',
      ...PARSE_PREP,
      `parse-decimal[${locale}]`,
      `abs-diff<=${formatDecimal(tolerance)}`,
      fallbackStep(),
    ],
    canonicalize: (value) => ({ parsed: parse(value), text: applyStringSteps(toText(value), TEXT_STEPS) }),
    equal: (a, b) =>
      a.parsed !== null && b.parsed !== null
        ? decimalsWithin(a.parsed as Decimal, b.parsed as Decimal, tolerance)
        : a.text === b.text,
    display: (value) => (value.parsed === null ? value.text : formatDecimal(value.parsed as Decimal)),
  };
}

function createParsedComparator(
  type: ComparatorType,
  parseStep: string,
  parse: (text: string) => string | boolean | null,
  show: (parsed: string | boolean) => string,
): Comparator {
  return {
    type,
    steps: ['to-string', ...PARSE_PREP, parseStep, fallbackStep()],
    canonicalize: (value) => {
      const prepared = applyStringSteps(toText(value), PARSE_PREP);
      const parsed = typeof value === 'boolean' && type === 'boolean' ? value : parse(prepared);
      return { parsed, text: applyStringSteps(prepared, TEXT_STEPS) };
    },
    equal: (a, b) => (a.parsed !== null && b.parsed !== null ? a.parsed === b.parsed : a.text === b.text),
    display: (value) => (value.parsed === null ? value.text : show(value.parsed as string | boolean)),
  };
}

/** What happens when either side does not parse: the string comparator's steps. */
function fallbackStep(): string {
  return `else-string(${TEXT_STEPS.join(',')})`;
}

const TRUE_WORDS = new Set(['true', 'yes', 'y', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0']);

/** docs/metrics/extraction.md: true/yes/y/1 and false/no/n/0, case-insensitive. */
export function parseBoolean(text: string): boolean | null {
  const word = text.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}
