/**
 * Raw text → a value of the schema's type. `normalise` (slow mode) also repairs common OCR confusions in
 * typed values, converts dates to ISO and snaps enums; fast mode only parses what parses as printed.
 */
import levenshtein from 'fast-levenshtein';
import { conceptWords, fold } from '../lexicon/lexicon.js';
import type { ScalarSpec } from './schema-fields.js';
import { withoutPrintedBlanks } from './printed-blanks.js';
import { findAmounts, findDates, resolveDate, toIsoDate, type DateOrder } from './typed-values.js';

export interface Coerced {
  value: string | number | boolean | null;
  /** Whether the text fits the type, format, pattern and enum. */
  valid: boolean;
}

/**
 * O→0, l/I→1, S→5, B→8 inside tokens that are mostly digits (OCR of numbers, dates and codes); the strokes the
 * OCR reads for a sub-box rule ("02丨02", "│") as the bar "|".
 */
export function repairDigits(text: string): string {
  return text.replace(/[丨｜│¦]/g, '|').replace(/[0-9OoIlSB$.,/-]{2,}/g, (token) => {
    const digits = token.replace(/[^0-9]/g, '').length;
    if (digits < token.replace(/[.,/$-]/g, '').length / 2) return token;
    return token.replace(/[Oo]/g, '0').replace(/[Il]/g, '1').replace(/S/g, '5').replace(/B/g, '8');
  });
}

/** Parses a money or plain number: "$1,234.50" → 1234.5, "(12.00)" → -12. Null when there is none. */
export function parseNumber(text: string): number | null {
  const match = /\(?-?\$?\s*\d[\d,]*(?:\.\d+)?\)?|-?\$?\s*\.\d+/.exec(text);
  if (!match) return null;
  const token = match[0];
  const negative = token.startsWith('(') || token.includes('-');
  const value = Number(token.replace(/[^0-9.]/g, ''));
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

/** Parses common printed dates to ISO YYYY-MM-DD (US order for ambiguous numeric dates). Null when none. */
export function parseDate(text: string): string | null {
  const found = findDates(text)[0];
  if (found) return resolveDate(found, 'mdy');
  // CMS-1500 boxes print "MM DD YYYY" or "MM DD YY" with spaces, or the digits run together. When the date is
  // all the text, the OCR may have read a sub-box rule as a "1" ("09 27 177", "10 112145") or lost it ("05 2245"),
  // and a fax's rules and specks as marks between or after the digits ("08 126.194", "04 115 -74", "04 128 180..").
  const subBoxes = /^[\d\s.,:;'`/-]+$/.test(text) ? text.replace(/[.,:;'`/-]+/g, ' ').trim() : text;
  const m =
    /\b(\d{2})\s+(\d{2})\s+(\d{4}|\d{2})\b/.exec(text) ??
    /^(\d{2})\s*[1lI]?\s*(\d{2})\s*[1lI]?\s*(\d{4}|\d{2})$/.exec(subBoxes) ??
    /\b(\d{2})(\d{2})(\d{4})\b/.exec(text);
  return m ? toIsoDate(Number(m[3]), Number(m[1]), Number(m[2])) : null;
}

/** The text with every printed date blanked out (month names too), so that its digits are read as no number. */
function withoutDates(text: string): string {
  let out = text;
  for (const date of findDates(text))
    out = out.slice(0, date.start) + ' '.repeat(date.end - date.start) + out.slice(date.end);
  return out;
}

/**
 * The words the common one-letter codes stand for: administrative sex (M, F, U, O) and marital status (S, M, D,
 * W) as HL7's tables define them, yes/no. A code answers only a word these start with ("Fem" → F): any word that
 * merely shares its first letter ("MEDICAID" from a neighbouring caption) is another value, not the code.
 */
const ONE_LETTER_CODES: Record<string, string[]> = {
  m: ['male', 'married'],
  f: ['female'],
  u: ['unknown'],
  o: ['other'],
  s: ['single'],
  d: ['divorced'],
  w: ['widowed'],
  y: ['yes'],
  n: ['no'],
};

function abbreviates(code: string, word: string): boolean {
  // Letters only: a mark the OCR printed beside the code ("F’", "M.") is no part of the word.
  const letters = word.replace(/[^\p{L}]/gu, '');
  return (ONE_LETTER_CODES[code] ?? []).some((meaning) => meaning.startsWith(letters) && letters.startsWith(code));
}

function snapEnum(text: string, options: string[]): string | null {
  const lower = text.toLowerCase().trim();
  let best: string | null = null;
  let bestScore = 0;
  for (const option of options) {
    const o = option.toLowerCase();
    const firstWord = lower.split(/\s+/)[0] ?? '';
    // Whole-word containment only for real words; a one-letter code matches the word it stands for ("F" ← "Female").
    const contains = o.length >= 3 && (` ${lower} `.includes(` ${o} `) || ` ${o} `.includes(` ${lower} `));
    const initial = o.length === 1 && lower.split(/\s+/).length === 1 && abbreviates(o, firstWord);
    const score =
      lower === o
        ? 1
        : contains
          ? 0.9
          : initial
            ? 0.8
            : 1 - levenshtein.get(lower, o) / Math.max(lower.length, o.length, 1);
    if (score > bestScore) {
      bestScore = score;
      best = option;
    }
  }
  return bestScore >= 0.6 ? best : null;
}

/**
 * A bare number, then after a comma or semicolon a part with words of its own that starts with no digit: "3, $25
 * Additional Tax" (allowances, then an extra withholding; the OCR may lose the space). Not "1,234.00 USD" or
 * "1, 234.00 USD" (a thousands separator, spaced by the OCR): a digit follows it.
 */
const LEADING_NUMBER = /^(\d+(?:\.\d+)?)[,;]\s*(?=[^\d\s])(?=.*\p{L}{3})/u;

/** The lexicon's answers in every language: yes, ja, oui…; no, nein, non… */
export const YES_WORDS: ReadonlySet<string> = new Set(conceptWords('yes'));
export const NO_WORDS: ReadonlySet<string> = new Set(conceptWords('no'));
/** Answers as printed: the lexicon's words, marks, and what forms export. */
const YES = new Set([...YES_WORDS, 'true', 'x', '☒', '☑', 'checked']);
const NO = new Set([...NO_WORDS, 'false', '☐', 'unchecked']);
const OR = new Set(conceptWords('particle-or'));

/**
 * A printed answer's value: its first word a yes or a no; none when it prints both options ("Yes No", "YES / NO",
 * "Ja oder Nein" over boxes the layout found no mark in).
 */
function answer(text: string): boolean | null {
  const words = fold(text)
    .replace(/\[\s*x\s*\]/g, '☒')
    .replace(/\[\s*\]/g, '☐')
    .split(/[^\p{L}\p{N}☒☑☐]+/u)
    .filter((word) => word !== '' && !OR.has(word));
  const [first, second] = words;
  if (first === undefined) return null;
  const yes = YES.has(first);
  if (!yes && !NO.has(first)) return null;
  if (second !== undefined && (yes ? NO : YES).has(second)) return null;
  return yes;
}

function matchesPattern(value: string, pattern: string | undefined): boolean {
  if (!pattern) return true;
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true;
  }
}

/**
 * Dollars and cents in sub-boxes split by a rule ("885 | 75", joined with a space): the cents are decimals. The
 * OCR reads the rule as a bar, a colon or an exclamation mark (a faxed rule breaks into dots: "131:25"), or as a
 * "1" before the cents ("885 175"), and the box's "$" at its left edge as a character of its own ("6 885 75",
 * "S 512|75").
 */
const SUB_BOX_AMOUNT = /^(?:[Ss6]\s+)?\$?\s*(\d[\d,]*)(?:\s*[|:;!¦]\s*|\s+[1lI]?)(\d{2})\|?$/;

/**
 * Parentheses as printed where the OCR lost or misread one: a brace closed by a parenthesis ("{302) 555-1094"),
 * a closing one with no opening one before it ("302) 555-1094": it opened the first word), a full stop between
 * a digit and the closing one ("(627.)").
 */
function balanceParentheses(text: string): string {
  const fixed = text.replace(/\{(?=[^{}()]*\))/g, '(').replace(/(\d)\s?\.\)/g, '$1)');
  const close = fixed.indexOf(')');
  return close > 0 && !fixed.slice(0, close).includes('(') && !/\s/.test(fixed.slice(0, close).trim())
    ? `(${fixed.trimStart()}`
    : fixed;
}

/**
 * A string as printed, with the OCR's slips in spacing and punctuation undone: spaces runs folded, no space
 * inside parentheses ("(234 ) 555-4572"), parentheses balanced, a space after a comma between words
 * ("BECKER,PETER"), no stray full stop after a closing digit ("PT-079049."), no leading or trailing punctuation
 * (a speck read as an apostrophe: "OH'").
 */
function tidyText(text: string): string {
  return balanceParentheses(text.replace(/\s+/g, ' '))
    .replace(/\(\s+/g, '(')
    .replace(/\s+\)/g, ')')
    .replace(/([A-Za-z\d]),(?=[A-Za-z$€£¥])/g, '$1, ')
    .replace(/(\d)\s?\.$/, '$1')
    .replace(/^[\s:#.-]+|[\s,;:'`]+$/g, '');
}

/** Coerces raw text to the field's type; all-numeric dates read in `dateOrder` when ambiguous. */
export function coerceScalar(
  raw: string,
  spec: Pick<ScalarSpec, 'type' | 'format' | 'pattern' | 'enum'>,
  normalise: boolean,
  dateOrder: DateOrder = 'mdy',
): Coerced {
  const text = (
    normalise && spec.type !== 'boolean' && !spec.enum
      ? spec.type === 'string' && !spec.format
        ? raw
        : repairDigits(raw)
      : raw
  ).trim();
  if (text === '') return { value: null, valid: false };
  switch (spec.type) {
    case 'integer':
    case 'number': {
      // A two-decimal amount reads in either convention ("1.234,50" and "1,234.50"); "(12.00)" stays negative.
      const split = SUB_BOX_AMOUNT.exec(text);
      if (split) return { value: Number(`${split[1]!.replace(/,/g, '')}.${split[2]}`), valid: true };
      // A number with a described addition after a comma ("Federal: 3, $25 Additional Tax") is the first part's.
      const lead = LEADING_NUMBER.exec(text);
      if (lead) return coerceScalar(lead[1]!, spec, normalise, dateOrder);
      // A number that is part of a date is never the amount ("as of 2023-01-20" holds no 2023).
      const undated = withoutDates(text);
      const amount = /\(/.test(undated) ? undefined : findAmounts(undated)[0];
      const value = amount ? amount.value : parseNumber(undated);
      if (value === null) return { value: null, valid: false };
      const typed = spec.type === 'integer' ? Math.round(value) : value;
      // A number inside words ("29. Amount Paid") is a label, not a value.
      const letters = undated.replace(/[^A-Za-z]/g, '').length;
      return { value: typed, valid: letters <= 3 && (spec.type === 'number' || Number.isInteger(value)) };
    }
    case 'boolean': {
      const value = answer(text);
      return { value, valid: value !== null };
    }
    default: {
      if (spec.enum && spec.enum.length > 0) {
        if (!normalise) return { value: text, valid: spec.enum.includes(text) };
        const snapped = snapEnum(text, spec.enum);
        return { value: snapped, valid: snapped !== null };
      }
      if (spec.format === 'date') {
        // Sub-boxes of a form date (MM | DD | YY): the OCR may read their rules as bars.
        const unboxed = text.replace(/\s*\|\s*/g, ' ');
        const found = findDates(unboxed)[0];
        const iso = found ? resolveDate(found, dateOrder) : parseDate(unboxed);
        if (normalise) return { value: iso, valid: iso !== null };
        return { value: text, valid: iso !== null };
      }
      const value = normalise ? tidyText(withoutPrintedBlanks(text)) : text;
      return { value, valid: value !== '' && matchesPattern(value, spec.pattern) };
    }
  }
}
