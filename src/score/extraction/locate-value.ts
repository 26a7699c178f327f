/**
 * Whether a truth value is in a system's own markdown of the document, normalised as the field's comparator
 * normalises it (docs/metrics/extraction.md "Reading or extraction"): every run of consecutive words of the
 * text is read as a candidate value and compared with the comparator itself, so "$1,234.50" finds 1234.5 in
 * a money field, "March 5, 2024" finds 2024-03-05 in a date field and "ACME corp" finds "Acme Corp" in a string
 * field. Pure: no I/O.
 */
import type { Json } from '../../types.js';
import { parseBoolean, type Canonical, type Comparator, type Scalar } from '../normalize/index.js';

/** Where a value was found: the page (1-based) and the character range of the words that read as it. */
export interface TextMatch {
  page: number;
  start: number;
  end: number;
}

/** The words of each page (runs of characters other than white space and table pipes), with their offsets. */
export interface WordIndex {
  pages: { words: string[]; starts: number[]; ends: number[] }[];
  /** Candidates already read, per comparator: a document's misses share comparators and text. */
  read: Map<Comparator, Map<string, Canonical>>;
}

/** Markdown decoration and punctuation before and after a value: `**Total:**`, `(2024-03-05)`. */
const LEADING = /^[*_#>`"'([{:;,]+/u;
const TRAILING = /[*_`"')\]}:;,]+$/u;
/** Words beyond the truth value's own count a candidate may span (a date written out in words: "March 5, 2024"). */
const EXTRA_WORDS = 2;
/** The longest candidate, in words: a value longer than this is looked for at its own length only. */
const MAX_WORDS = 12;

export function indexWords(pages: readonly string[]): WordIndex {
  return {
    read: new Map(),
    pages: pages.map((text) => {
      const words: string[] = [];
      const starts: number[] = [];
      const ends: number[] = [];
      for (const match of text.matchAll(/[^\s|]+/gu)) {
        words.push(match[0]);
        starts.push(match.index);
        ends.push(match.index + match[0].length);
      }
      return { words, starts, ends };
    }),
  };
}

/**
 * The first place the text holds `value` as `comparator` compares it, or null. A non-scalar value (a truth
 * object where the prediction had a scalar) is there when each of its scalar leaves is; the first leaf's
 * place is returned.
 */
export function locateValue(value: Json, comparator: Comparator, index: WordIndex): TextMatch | null {
  if (value === null) return null;
  if (typeof value === 'object') {
    const leaves = scalarLeaves(value);
    if (leaves.length === 0) return null;
    const matches = leaves.map((leaf) => locateScalar(leaf, comparator, index));
    return matches.every((m) => m !== null) ? matches[0]! : null;
  }
  return locateScalar(value, comparator, index);
}

function scalarLeaves(value: Json): Scalar[] {
  if (value === null) return [];
  if (typeof value !== 'object') return [value];
  return (Array.isArray(value) ? value : Object.values(value)).flatMap(scalarLeaves);
}

function locateScalar(value: Scalar, comparator: Comparator, index: WordIndex): TextMatch | null {
  const target = comparator.canonicalize(value);
  const words = String(value).split(/\s+/u).filter(Boolean).length;
  const longest = Math.max(words, Math.min(MAX_WORDS, words + EXTRA_WORDS));
  // A number or a date is read from digits: a candidate without one cannot be it.
  const needsDigit = ['number', 'money', 'date'].includes(comparator.type) && /\d/.test(String(value));
  let read = index.read.get(comparator);
  if (!read) {
    read = new Map();
    index.read.set(comparator, read);
  }
  const known = read;
  // Keyed by the truth's type too: the exact comparator reads "12" as a number for a number truth only.
  const equals = (text: string) => {
    const key = `${typeof value}:${text}`;
    let canonical = known.get(key);
    if (!canonical) {
      canonical = comparator.canonicalize(asTypeOf(value, text));
      known.set(key, canonical);
    }
    return comparator.equal(canonical, target);
  };
  for (let p = 0; p < index.pages.length; p++) {
    const page = index.pages[p]!;
    for (let first = 0; first < page.words.length; first++) {
      let text = '';
      for (let size = 1; size <= longest && first + size <= page.words.length; size++) {
        text = size === 1 ? page.words[first]! : `${text} ${page.words[first + size - 1]}`;
        if (size < words - EXTRA_WORDS) continue;
        if (needsDigit && !/\d/.test(text)) continue;
        const start = page.starts[first]!;
        const end = page.ends[first + size - 1]!;
        if (equals(text)) return { page: p + 1, start, end };
        const lead = LEADING.exec(text)?.[0].length ?? 0;
        const trail = TRAILING.exec(text)?.[0].length ?? 0;
        if ((lead > 0 || trail > 0) && lead + trail < text.length && equals(text.slice(lead, text.length - trail)))
          return { page: p + 1, start: start + lead, end: end - trail };
      }
    }
  }
  return null;
}

/**
 * The candidate as the truth's JSON type where the text reads as one: the `exact` comparator compares typed
 * values, and 12 in the truth is the text "12" on the page.
 */
function asTypeOf(value: Scalar, text: string): Scalar {
  if (typeof value === 'number') {
    const number = Number(text);
    return text.trim() !== '' && Number.isFinite(number) ? number : text;
  }
  if (typeof value === 'boolean') return parseBoolean(text.toLowerCase()) ?? text;
  return text;
}
