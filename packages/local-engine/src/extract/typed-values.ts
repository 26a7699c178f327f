/**
 * Typed value finders: every date, money amount and currency printed in a piece of text, in the spellings
 * real invoices and receipts use (US, European and German numeric dates, month names in the lexicon's languages,
 * `1,234.50` and `1.234,50` amounts, symbols and ISO 4217 codes), plus the NPI check digit.
 */
import { conceptWords, fold } from '../lexicon/lexicon.js';

/** Day/month order of an all-numeric date: `dmy` (most of the world), `mdy` (US), unknown when ambiguous. */
export type DateOrder = 'dmy' | 'mdy';

/** A date found in text, with both readings when it is all-numeric and ambiguous (`03/05/2024`). */
export interface FoundDate {
  /** ISO date under day-first reading (or the only reading). */
  dmy: string | null;
  /** ISO date under month-first reading (or the only reading). */
  mdy: string | null;
  start: number;
  end: number;
}

/** A money amount found in text. */
export interface FoundAmount {
  value: number;
  start: number;
  end: number;
  /** ISO 4217 code of a symbol or code printed next to it, null when none. */
  currency: string | null;
}

/** Month names and their abbreviations in every language of the lexicon, folded, → the month's number. */
const MONTH_NAMES = new Map(
  Array.from({ length: 12 }, (_, i) => conceptWords(`month-${i + 1}`).map((word) => [word, i + 1] as const)).flat(),
);

/** Month number of a month name or abbreviation ("März", "févr.", "Sept"); null when it is not one. */
export function parseMonthName(word: string): number | null {
  return MONTH_NAMES.get(fold(word).replace(/\.$/, '')) ?? null;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** ISO date when the parts form a real calendar day (two-digit years pivot at 50); null otherwise. */
export function toIsoDate(year: number, month: number, day: number): string | null {
  // A two-digit year is at most ten years ahead: forms print birth dates as MM DD YY too ("45" is 1945).
  if (year < 100) year += year > (new Date().getUTCFullYear() % 100) + 10 ? 1900 : 2000;
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1900 || year > 2100) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

const MONTH_WORD = '(\\p{L}{3,10})\\.?';
const DATE_PATTERNS: { pattern: RegExp; read: (m: RegExpExecArray) => Pick<FoundDate, 'dmy' | 'mdy'> | null }[] = [
  // 2024-03-12, 2024/03/12, 2024.03.12
  {
    pattern: /(?<!\d)(\d{4})\s?[-/.]\s?(\d{1,2})\s?[-/.]\s?(\d{1,2})(?!\d)/g,
    read: (m) => both(toIsoDate(+m[1]!, +m[2]!, +m[3]!)),
  },
  // 12.03.2024, 3-12-2024: day and month order decided later. Digit bounds, not word bounds: OCR
  // glues letters to dates ("RT14-03-2018WW").
  {
    pattern: /(?<![\d.,])(\d{1,2})([-.])(\d{1,2})\2(\d{4}|\d{2})(?![\d])/g,
    read: (m) => ({ dmy: toIsoDate(+m[4]!, +m[3]!, +m[1]!), mdy: toIsoDate(+m[4]!, +m[1]!, +m[3]!) }),
  },
  // Slashes may stand apart from the digits in OCR ("03 / 05 / 1980"); dashes and points may not ("3-7 - 15").
  {
    pattern: /(?<![\d.,])(\d{1,2})\s?\/\s?(\d{1,2})\s?\/\s?(\d{4}|\d{2})(?![\d])/g,
    read: (m) => ({ dmy: toIsoDate(+m[3]!, +m[2]!, +m[1]!), mdy: toIsoDate(+m[3]!, +m[1]!, +m[2]!) }),
  },
  // 12 Mar 2024, 12. März 2024, 12-Mar-24, 12MAR2024
  {
    pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?[\\s-]*${MONTH_WORD}[\\s,-]*(\\d{4}|\\d{2})\\b`, 'gu'),
    read: (m) => monthNamed(m[3]!, m[2]!, m[1]!),
  },
  // Mar 12, 2024, March 12 2024, März 12, 2024
  {
    pattern: new RegExp(`\\b${MONTH_WORD}[\\s-]*(\\d{1,2})(?:st|nd|rd|th)?,?[\\s-]*(\\d{4})\\b`, 'gu'),
    read: (m) => monthNamed(m[3]!, m[1]!, m[2]!),
  },
];

function both(iso: string | null): Pick<FoundDate, 'dmy' | 'mdy'> | null {
  return iso ? { dmy: iso, mdy: iso } : null;
}

function monthNamed(year: string, monthWord: string, day: string): Pick<FoundDate, 'dmy' | 'mdy'> | null {
  const month = parseMonthName(monthWord);
  return month === null ? null : both(toIsoDate(+year, month, +day));
}

/** Every date printed in `text`, left to right, overlapping matches dropped. */
export function findDates(text: string): FoundDate[] {
  const found: FoundDate[] = [];
  for (const { pattern, read } of DATE_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const start = m.index;
      const end = start + m[0].length;
      if (found.some((f) => start < f.end && end > f.start)) continue;
      const readings = read(m as RegExpExecArray);
      if (readings && (readings.dmy || readings.mdy)) found.push({ ...readings, start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The ISO date of a found date under `order`, falling back to the only valid reading. */
export function resolveDate(date: FoundDate, order: DateOrder): string | null {
  return order === 'dmy' ? (date.dmy ?? date.mdy) : (date.mdy ?? date.dmy);
}

/**
 * The day/month order a document uses: an unambiguous numeric date decides (a first part above 12 is a day);
 * otherwise the fallback (from the currency or language the caller saw).
 */
export function inferDateOrder(texts: string[], fallback: DateOrder): DateOrder {
  let dmy = 0;
  let mdy = 0;
  for (const text of texts) {
    for (const date of findDates(text)) {
      if (date.dmy && !date.mdy) dmy++;
      if (date.mdy && !date.dmy) mdy++;
    }
  }
  return dmy === mdy ? fallback : dmy > mdy ? 'dmy' : 'mdy';
}

/** Currency symbols and the local names printed on receipts, → ISO 4217. Codes themselves are matched too. */
const CURRENCY_SIGNS: [RegExp, string][] = [
  [/€|\bEUR\b|\bEuro\b/i, 'EUR'],
  [/£|\bGBP\b/, 'GBP'],
  [/\bUS\$|\bUSD\b|\$/, 'USD'],
  [/\bRM\b|\bMYR\b/, 'MYR'],
  [/¥|\bJPY\b/, 'JPY'],
  [/\bCHF\b|\bSFr\b/, 'CHF'],
  [/\bCAD\b|\bC\$/, 'CAD'],
  [/\bAUD\b|\bA\$/, 'AUD'],
  [/\bINR\b|₹/, 'INR'],
  [/\bSGD\b|\bS\$/, 'SGD'],
];

const ISO_CODES = new Set([
  'EUR',
  'USD',
  'GBP',
  'MYR',
  'JPY',
  'CHF',
  'CAD',
  'AUD',
  'INR',
  'SGD',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'NZD',
  'CNY',
  'HKD',
  'BRL',
  'MXN',
  'ZAR',
]);

/** The ISO 4217 code a piece of text names by code or symbol; null when none. `$` alone reads as USD. */
export function findCurrency(text: string): string | null {
  for (const m of text.matchAll(/\b[A-Z]{3}\b/g)) if (ISO_CODES.has(m[0])) return m[0];
  // Most specific signs first: "US$", "C$", "A$", "S$" before a bare "$".
  const ordered = [...CURRENCY_SIGNS].sort((a, b) => Number(b[1] !== 'USD') - Number(a[1] !== 'USD'));
  for (const [pattern, code] of ordered) if (pattern.test(text)) return code;
  return null;
}

// An amount with two decimals: 1,234.50 / 1.234,50 / 1 234,50 / 60.30 / 60,30. Integers are not money here:
// receipts and invoices print cents, and bare integers are quantities, ids and years far more often.
// OCR of thermal receipts sometimes puts a space after the decimal point ("190. 00"): allowed after a point only.
// Tills print amounts under one unit without the zero ("CHANGE RM .10"): a point alone after a space is 0.xx.
// A space groups thousands only before a decimal comma ("1 482,00", French and others): "3 494.88" is more often a
// quantity and a price.
const AMOUNT =
  /(?<![\d.,])(-\s?)?(\d{1,3}(?:(?:([,.'])|[ \u00a0\u202f](?=\d{3}(?:[ \u00a0\u202f]\d{3})*,\d{2}(?!\d)))\d{3})*|\d+|(?<=^|\s))(,|\. ?)(\d{2})(?![\d])/g;

/** Every two-decimal money amount in `text`, with the currency printed beside it (within a few characters). */
export function findAmounts(text: string): FoundAmount[] {
  const found: FoundAmount[] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const [, minus, whole, group, decimal, cents] = m;
    if (group && group === decimal!.trim()) continue;
    if (whole === '' && decimal !== '.') continue;
    const value = Number(`${whole!.replace(/[,.'\s]/g, '') || '0'}.${cents}`) * (minus ? -1 : 1);
    if (!Number.isFinite(value)) continue;
    const start = m.index;
    const end = start + m[0].length;
    // A rate, not money: "GST 6.00%".
    if (/^\s?%/.test(text.slice(end))) continue;
    const around = text.slice(Math.max(0, start - 5), Math.min(text.length, end + 5));
    found.push({ value, start, end, currency: findCurrency(around) });
  }
  return found;
}

/**
 * Whether a 10-digit NPI carries a valid check digit: Luhn over the digits prefixed with the card issuer
 * prefix 80840 (CMS NPI standard).
 */
export function isValidNpi(text: string): boolean {
  const digits = text.replace(/\s/g, '');
  if (!/^\d{10}$/.test(digits)) return false;
  const full = `80840${digits}`;
  let sum = 0;
  for (let i = 0; i < full.length; i++) {
    let d = Number(full[full.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
