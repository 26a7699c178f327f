/**
 * Exact decimal numbers for the number and money comparators. docs/metrics/extraction.md forbids float `===` on money, so a
 * value is parsed to an integer coefficient and a decimal scale (value = coef × 10^-scale) and compared with
 * BigInt arithmetic: `0.1 + 0.2` style errors cannot occur, and no rounding grid (such as 1e-6) is needed.
 */
import type { DateLocale } from '../../types.js';

/** value = coef × 10^(−scale), with trailing zeros removed (12.50 → 1250 × 10⁻² → 125 × 10⁻¹). */
export interface Decimal {
  coef: bigint;
  scale: number;
  /** The nearest double: only used to reject pairs that are far apart without BigInt work. */
  approx: number;
}

const POWERS_OF_TEN: bigint[] = Array.from({ length: 64 }, (_, k) => 10n ** BigInt(k));

function powerOfTen(exponent: number): bigint {
  return POWERS_OF_TEN[exponent] ?? 10n ** BigInt(exponent);
}

/** Strips trailing zeros so that equal values have equal (coef, scale). */
function makeDecimal(coef: bigint, scale: number): Decimal {
  let c = coef;
  let s = scale;
  while (s > 0 && c % 10n === 0n) {
    c /= 10n;
    s--;
  }
  return { coef: c, scale: s, approx: Number(c) / 10 ** s };
}

/** The largest exponent a JSON number is written with, with room to spare. */
const MAX_EXPONENT = 400;

// Three-letter ISO 4217 codes written before or after the amount ("USD 12.50", "12,50 EUR").
const ISO_CODE_PREFIX = /^[A-Za-z]{3}(?=[\s\d(+\-−.,])/u;
const ISO_CODE_SUFFIX = /(?<=[\d\s).])[A-Za-z]{3}$/u;

/**
 * Parses a number written the way documents write amounts: currency symbols (`\p{Sc}`) and ISO codes stripped,
 * `(12.50)` = −12.50, leading `-`/`−`/`+`, thousands separators (`,` `.` space, apostrophe) checked to sit every
 * three digits, decimal comma or point, and exponents as JSON numbers print them (`1e+21`).
 *
 * Separator rule: with both `,` and `.`, the last one is the decimal mark. With one kind only, a mark used more
 * than once groups thousands; used once, it is the decimal mark, except that a single mark followed by exactly
 * three digits (`1,234` / `1.234`) groups thousands in the US locale (`,`) and EU locale (`.`).
 *
 * @returns the exact value, or null when the text is not a number (the caller falls back to a string compare).
 */
export function parseDecimal(input: string, locale: DateLocale = 'US'): Decimal | null {
  let text = input.trim();
  let negative = false;
  if (/^\(.*\)$/u.test(text)) {
    negative = true;
    text = text.slice(1, -1).trim();
  }
  text = text.replace(/\p{Sc}/gu, '').trim();
  text = text.replace(ISO_CODE_PREFIX, '').replace(ISO_CODE_SUFFIX, '').trim();
  const sign = /^[-+−]/u.exec(text);
  if (sign) {
    if (sign[0] !== '+') negative = !negative;
    text = text.slice(1).trim();
    // "-$12.50" and "$-12.50" both happen: strip a symbol that followed the sign.
    text = text.replace(/^\p{Sc}\s*/u, '');
  }
  const exponentMatch = /[eE]([+-]?\d+)$/u.exec(text);
  let exponent = 0;
  if (exponentMatch) {
    exponent = Number(exponentMatch[1]);
    // Beyond what any double prints (1e308, 5e-324): a code such as 25636E70983739, not a number — and its
    // power of ten alone would take seconds to compute.
    if (Math.abs(exponent) > MAX_EXPONENT) return null;
    text = text.slice(0, exponentMatch.index);
    if (!/^\d*\.?\d*$/u.test(text)) return null;
  }
  if (!/^[\d.,\s'\u2019\u00a0\u2009\u202f]+$/u.test(text) || !/\d/u.test(text)) return null;

  const split = splitDecimalMark(text, locale);
  if (!split) return null;
  const { integer, fraction } = split;
  if (!/^\d*$/u.test(fraction)) return null;
  let coef = BigInt((integer || '0') + fraction);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    coef *= powerOfTen(-scale);
    scale = 0;
  }
  return makeDecimal(negative ? -coef : coef, scale);
}

/** Splits at the decimal mark and validates the thousands grouping of the integer part. */
function splitDecimalMark(text: string, locale: DateLocale): { integer: string; fraction: string } | null {
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  let mark: ',' | '.' | null = null;
  if (lastComma >= 0 && lastDot >= 0) mark = lastComma > lastDot ? ',' : '.';
  else if (lastComma >= 0 || lastDot >= 0) {
    const only = lastComma >= 0 ? ',' : '.';
    const count = text.split(only).length - 1;
    const afterLast = text.slice(text.lastIndexOf(only) + 1);
    const groupsInThisLocale = (only === ',' && locale === 'US') || (only === '.' && locale === 'EU');
    const looksGrouped = /^\d{3}$/u.test(afterLast) && /^\d{1,3}$/u.test(text.slice(0, text.indexOf(only)));
    mark = count > 1 || (groupsInThisLocale && looksGrouped) ? null : only;
  }
  const integerRaw = mark ? text.slice(0, text.lastIndexOf(mark)) : text;
  const fraction = mark ? text.slice(text.lastIndexOf(mark) + 1) : '';
  const integer = ungroup(integerRaw, mark);
  return integer === null ? null : { integer, fraction };
}

/** Removes thousands separators, which must sit every three digits (so "12 50" is not read as 1250). */
function ungroup(integer: string, decimalMark: string | null): string | null {
  const plain = integer.trim();
  if (/^\d*$/u.test(plain)) return plain;
  const separators = new Set(plain.replace(/\d/gu, ''));
  if (separators.size !== 1) return null;
  const [separator] = [...separators];
  if (separator === decimalMark) return null;
  const groups = plain.split(separator!);
  if (!/^\d{1,3}$/u.test(groups[0]!) || groups.slice(1).some((g) => !/^\d{3}$/u.test(g))) return null;
  return groups.join('');
}

/** The exact decimal of a JSON number, via its shortest round-trip text (what the JSON file said). */
export function decimalFromNumber(value: number): Decimal | null {
  return Number.isFinite(value) ? parseDecimal(String(value)) : null;
}

/** |a − b| ≤ tolerance, exactly. */
export function decimalsWithin(a: Decimal, b: Decimal, tolerance: Decimal): boolean {
  if (a.coef === b.coef && a.scale === b.scale) return true;
  // Doubles carry a relative error below 2⁻⁵²: a gap this much beyond the tolerance is real, no BigInt needed.
  const slack = 1e-12 * (Math.abs(a.approx) + Math.abs(b.approx) + tolerance.approx) + Number.MIN_VALUE;
  if (Math.abs(a.approx - b.approx) > tolerance.approx + slack) return false;
  const scale = Math.max(a.scale, b.scale, tolerance.scale);
  const lift = (d: Decimal) => d.coef * powerOfTen(scale - d.scale);
  let diff = lift(a) - lift(b);
  if (diff < 0n) diff = -diff;
  return diff <= lift(tolerance);
}

/** Plain decimal text of a Decimal, e.g. `-12.5`: the canonical form shown in reports. */
export function formatDecimal(value: Decimal): string {
  const negative = value.coef < 0n;
  let digits = (negative ? -value.coef : value.coef).toString();
  if (value.scale > 0) {
    digits = digits.padStart(value.scale + 1, '0');
    digits = `${digits.slice(0, -value.scale)}.${digits.slice(-value.scale)}`.replace(/\.?0+$/u, '');
  }
  return `${negative && digits !== '0' ? '-' : ''}${digits}`;
}
