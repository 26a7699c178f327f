import { describe, expect, it } from 'vitest';
import { inferComparatorSpec, splitFieldName } from '../../src/score/extraction/index.js';
import {
  createComparator,
  formatDecimal,
  parseDate,
  parseDecimal,
  type Scalar,
} from '../../src/score/normalize/index.js';
import type { ComparatorSpec, DateLocale } from '../../src/types.js';

function decimalText(text: string, locale: DateLocale = 'US'): string | null {
  const value = parseDecimal(text, locale);
  return value ? formatDecimal(value) : null;
}

function same(spec: ComparatorSpec, a: Scalar, b: Scalar, locale: DateLocale = 'US'): boolean {
  const comparator = createComparator(spec, locale);
  return comparator.equal(comparator.canonicalize(a), comparator.canonicalize(b));
}

describe('parseDecimal', () => {
  it.each([
    ['12.50', '12.5'],
    ['$1,234.56', '1234.56'],
    ['(12.50)', '-12.5'],
    ['-$12.50', '-12.5'],
    ['$-12.50', '-12.5'],
    ['USD 1,000', '1000'],
    ['12,50 €', '12.5'],
    ['1.234,56', '1234.56'],
    ['1 234,56', '1234.56'],
    ["1'234.50", '1234.5'],
    ['1,234,567', '1234567'],
    ['.5', '0.5'],
    ['1e+21', '1000000000000000000000'],
    ['1.5e-7', '0.00000015'],
    ['−3', '-3'],
  ])('reads %s as %s', (text, expected) => {
    expect(decimalText(text)).toBe(expected);
  });

  it('reads an exponent beyond any double as not a number (a code such as 25636E70983739)', () => {
    expect(parseDecimal('25636E70983739')).toBeNull();
    expect(parseDecimal('1e-401')).toBeNull();
    expect(decimalText('5e-324')).toBe(`0.${'0'.repeat(323)}5`);
  });

  it('reads a lone 1,234 as thousands in the US and as a decimal comma in the EU', () => {
    expect(decimalText('1,234')).toBe('1234');
    expect(decimalText('1,234', 'EU')).toBe('1.234');
    expect(decimalText('1.234', 'EU')).toBe('1234');
  });

  it.each(['abc', '', '$', '12 50', '1,23,4', '12.50-', '1.2.3,4,5', 'NaN'])('rejects %j', (text) => {
    expect(parseDecimal(text)).toBeNull();
  });
});

describe('number and money comparators', () => {
  it('compares exactly, without float error', () => {
    expect(same({ type: 'number' }, 0.3, '0.30')).toBe(true);
    expect(same({ type: 'number' }, 0.1 + 0.2, 0.3)).toBe(false);
    expect(same({ type: 'number' }, 125.5, '125.50')).toBe(true);
  });

  it('allows 0.005 for money and nothing for plain numbers', () => {
    expect(same({ type: 'money' }, 125.5, '125.505')).toBe(true);
    expect(same({ type: 'money' }, 125.5, '125.5051')).toBe(false);
    expect(same({ type: 'number' }, 125.5, '125.505')).toBe(false);
    expect(same({ type: 'number', tolerance: 0.01 }, 1, 1.01)).toBe(true);
  });

  it('falls back to a string compare when a side is not a number', () => {
    expect(same({ type: 'money' }, 'N/A', 'n/a')).toBe(true);
    expect(same({ type: 'money' }, 'N/A', 0)).toBe(false);
  });

  it('rejects a negative tolerance', () => {
    expect(() => createComparator({ type: 'money', tolerance: -1 })).toThrow(/tolerance/);
  });
});

describe('parseDate', () => {
  it.each([
    ['2024-03-05', '2024-03-05'],
    ['2024-03-05T10:00:00Z', '2024-03-05'],
    ['2024/03/05', '2024-03-05'],
    ['20240305', '2024-03-05'],
    ['3/5/2024', '2024-03-05'],
    ['03-05-2024', '2024-03-05'],
    ['03/05/24', '2024-03-05'],
    ['03/05/51', '1951-03-05'],
    ['March 5, 2024', '2024-03-05'],
    ['Mar. 5th 2024', '2024-03-05'],
    ['Tuesday, March 5, 2024', '2024-03-05'],
    ['5 Mar 2024', '2024-03-05'],
    ['5-Mar-2024', '2024-03-05'],
    ['2024 March 5', '2024-03-05'],
    ['29/02/2024', '2024-02-29'],
  ])('reads %s as %s (US)', (text, iso) => {
    expect(parseDate(text, 'US')).toBe(iso);
  });

  it('reads ambiguous numeric dates day first in the EU locale', () => {
    expect(parseDate('03/05/2024', 'EU')).toBe('2024-05-03');
    expect(parseDate('05.03.2024', 'EU')).toBe('2024-03-05');
  });

  it.each(['2023-02-29', '13/13/2024', 'yesterday', '2024-3', 'March 2024', 'constructor 5 2024'])(
    'rejects %s',
    (text) => {
      expect(parseDate(text)).toBeNull();
    },
  );

  it('falls back to a string compare when a side does not parse', () => {
    expect(same({ type: 'date' }, 'unknown', 'UNKNOWN')).toBe(true);
    expect(same({ type: 'date' }, '2024-03-05', 'unknown')).toBe(false);
  });
});

describe('boolean and code comparators', () => {
  it('reads true/yes/y/1 and false/no/n/0', () => {
    for (const word of [true, 'yes', 'Y', '1', 1, 'TRUE']) expect(same({ type: 'boolean' }, true, word)).toBe(true);
    for (const word of [false, 'no', 'N', '0', 0]) expect(same({ type: 'boolean' }, false, word)).toBe(true);
    expect(same({ type: 'boolean' }, true, 'no')).toBe(false);
  });

  it('uppercases and trims codes, and strips dots only on request', () => {
    expect(same({ type: 'code' }, 'E11.9', ' e11.9 ')).toBe(true);
    expect(same({ type: 'code' }, 'E11.9', 'E119')).toBe(false);
    expect(same({ type: 'code', ignoreDots: true }, 'E11.9', 'e119')).toBe(true);
    expect(same({ type: 'code' }, 1234567890, '1234567890')).toBe(true);
  });

  it('the exact comparator keeps types apart', () => {
    expect(same({ type: 'exact' }, 1, '1')).toBe(false);
    expect(same({ type: 'exact' }, 'a', 'a')).toBe(true);
  });
});

describe('comparator resolution', () => {
  const root = {};
  it('splits field names into words', () => {
    expect(splitFieldName('memberID')).toEqual(['member', 'id']);
    expect(splitFieldName('ICD10Code')).toEqual(['icd10', 'code']);
    expect(splitFieldName('total_charge')).toEqual(['total', 'charge']);
  });

  it.each([
    ['total_charge', undefined, undefined, 'money', 'name'],
    ['total_units', undefined, 'number', 'number', 'value'],
    ['due_date', undefined, undefined, 'date', 'name'],
    ['member_id', undefined, undefined, 'code', 'name'],
    ['cpt', undefined, undefined, 'code', 'name'],
    ['units', { type: 'integer' }, undefined, 'number', 'schema'],
    ['amount', { type: 'number' }, undefined, 'money', 'schema'],
    ['x', { type: 'number', description: 'Amount in USD' }, undefined, 'money', 'schema'],
    ['x', { type: 'string', format: 'date' }, undefined, 'date', 'schema'],
    ['x', { type: ['boolean', 'null'] }, undefined, 'boolean', 'schema'],
    ['npi', { type: 'string' }, undefined, 'code', 'name'],
    ['name', { type: 'string' }, 'string', 'string', 'default'],
    ['flag', undefined, 'boolean', 'boolean', 'value'],
  ] as const)('%s with schema %j and value type %s → %s (%s)', (name, schema, valueType, type, source) => {
    expect(inferComparatorSpec(name, schema as never, root, valueType)).toEqual({ spec: { type }, source });
  });
});
