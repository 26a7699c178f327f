/**
 * Dates that qualify a caption: "Final available balance as of 2023-01-20  11,000", "Represents transactions
 * till 2023-01-17". The date belongs to the caption (the figure's value is further on), and it is the value of a
 * date field that asks when that caption's figure holds ("date the available balance is given as of").
 */
import { conceptWords } from '../lexicon/lexicon.js';
import type { IndexedLine } from './document-index.js';
import { findDates } from './typed-values.js';

/** Words that put a date after a caption: the day a figure is given for, the last day a list covers. */
/** The qualifiers as the index normalises them, spaces dropped ("as of" and the OCR's glued "asof" alike). */
const QUALIFIERS = new Set(
  [...conceptWords('as-of', 'captions'), ...conceptWords('until', 'captions')].map((words) =>
    words.replace(/\s+/g, ''),
  ),
);

/** A qualifying date printed on a line right after token `i`: its characters and the token after it. */
export interface QualifiedDate {
  start: number;
  end: number;
  /** The index of the first token after the date. */
  nextToken: number;
}

/** The date that a qualifier starting at token `i` puts after the words before it, or null. */
export function qualifiedDateAt(entry: IndexedLine, i: number): QualifiedDate | null {
  const tokens = entry.tokens;
  for (const width of [1, 2]) {
    const words = tokens.slice(i, i + width);
    if (words.length < width || !QUALIFIERS.has(words.map((t) => t.norm).join(''))) continue;
    const after = words[width - 1]!.end;
    const rest = entry.line.text.slice(after);
    const date = findDates(rest)[0];
    if (!date || rest.slice(0, date.start).trim() !== '') return null;
    const start = after + date.start;
    const end = after + date.end;
    const next = tokens.findIndex((t) => t.start >= end);
    return { start, end, nextToken: next < 0 ? tokens.length : next };
  }
  return null;
}

/** Words of a date field's label that say "a date" rather than what the date is of. */
const DATE_WORDING = new Set([
  'date',
  'dates',
  'dated',
  'day',
  'as',
  'of',
  'at',
  'on',
  'the',
  'a',
  'an',
  'is',
  'are',
  'was',
  'were',
  'be',
  'given',
  'stated',
  'shown',
  'printed',
  ...conceptWords('until', 'captions'),
]);

/**
 * What a date field's label dates ("date the available balance is given as of" → "available balance",
 * "balance date" → "balance"); null when nothing is left.
 */
export function dateSubject(label: string): string | null {
  const words = label
    .toLowerCase()
    .split(/[^\p{L}\p{N}'’]+/u)
    .filter((word) => word && !DATE_WORDING.has(word));
  return words.length > 0 ? words.join(' ') : null;
}
