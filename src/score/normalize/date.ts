/**
 * Dates to ISO `YYYY-MM-DD` with an explicit list of formats (docs/metrics/extraction.md). Anything else is "unparseable"
 * and the comparator falls back to a string compare — never a guess by `Date.parse`, whose accepted formats
 * differ between engines.
 */
import type { DateLocale } from '../../types.js';

/**
 * Two-digit years: 00–49 → 2000–2049, 50–99 → 1950–1999. A fixed pivot keeps the scorer pure (no clock);
 * 50 is the split .NET and many spreadsheets use. Four-digit years are always taken as written.
 */
export const TWO_DIGIT_YEAR_PIVOT = 50;

/** The accepted formats, in the order they are tried; recorded in docs/metrics/extraction.md. */
export const DATE_FORMATS = [
  'YYYY-MM-DD (ISO; a time part after T or a space is ignored)',
  'YYYY/MM/DD, YYYY.MM.DD',
  'YYYYMMDD (compact)',
  'M/D/YYYY, M-D-YYYY, M.D.YYYY (US) or D/M/YYYY… (EU); 2-digit years use the pivot; if the locale order is not a valid date, the other order is tried',
  'Month D, YYYY / Mon D YYYY / D Month YYYY / D-Mon-YYYY (English month names, optional weekday and ordinal suffix)',
] as const;

const MONTHS = new Map<string, number>(
  Object.entries({
    jan: 1,
    january: 1,
    feb: 2,
    february: 2,
    mar: 3,
    march: 3,
    apr: 4,
    april: 4,
    may: 5,
    jun: 6,
    june: 6,
    jul: 7,
    july: 7,
    aug: 8,
    august: 8,
    sep: 9,
    sept: 9,
    september: 9,
    oct: 10,
    october: 10,
    nov: 11,
    november: 11,
    dec: 12,
    december: 12,
  }),
);
const WEEKDAY = /^(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(day|nesday|sday|urday)?\.?,?\s+/u;

/** Parses `text` (already NFKC-normalised and trimmed) to `YYYY-MM-DD`, or returns null. */
export function parseDate(text: string, locale: DateLocale = 'US'): string | null {
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s].*)?$/u.exec(text);
  if (m) return toIso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{4})([/.])(\d{1,2})\2(\d{1,2})$/u.exec(text);
  if (m) return toIso(Number(m[1]), Number(m[3]), Number(m[4]));
  m = /^(\d{4})(\d{2})(\d{2})$/u.exec(text);
  if (m) return toIso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})$/u.exec(text);
  if (m) {
    const year = expandYear(m[4]!);
    const [first, second] = [Number(m[1]), Number(m[3])];
    const [month, day] = locale === 'US' ? [first, second] : [second, first];
    return toIso(year, month, day) ?? toIso(year, day, month);
  }
  return parseNamedMonth(text);
}

function parseNamedMonth(text: string): string | null {
  const cleaned = text
    .toLowerCase()
    .replace(WEEKDAY, '')
    .replace(/(\d)(st|nd|rd|th)\b/gu, '$1')
    .replace(/[.,]/gu, ' ')
    .trim();
  const tokens = cleaned.split(/[\s/-]+/u);
  if (tokens.length !== 3) return null;
  const [a, b, c] = tokens as [string, string, string];
  if (MONTHS.has(a) && /^\d{1,2}$/u.test(b) && /^\d{4}$/u.test(c)) return toIso(Number(c), MONTHS.get(a)!, Number(b));
  if (/^\d{1,2}$/u.test(a) && MONTHS.has(b) && /^(\d{4}|\d{2})$/u.test(c))
    return toIso(expandYear(c), MONTHS.get(b)!, Number(a));
  if (/^\d{4}$/u.test(a) && MONTHS.has(b) && /^\d{1,2}$/u.test(c)) return toIso(Number(a), MONTHS.get(b)!, Number(c));
  return null;
}

function expandYear(digits: string): number {
  const year = Number(digits);
  if (digits.length === 4) return year;
  return year < TWO_DIGIT_YEAR_PIVOT ? 2000 + year : 1900 + year;
}

function toIso(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
