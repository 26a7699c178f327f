/**
 * Levenshtein distance counted in Unicode code points, computed by fast-levenshtein. The one implementation
 * behind every edit distance in the scorers: markdown similarity, TEDS cell texts, region text, ANLS*.
 *
 * fast-levenshtein (through fastest-levenshtein, Myers' bit-parallel algorithm, O(n·m/32)) compares UTF-16
 * code units: an astral character (emoji, many CJK extension ideographs, math alphanumerics) is two units,
 * so one substituted emoji would count as two edits and lengths would be off. Rather than give up the
 * library's bit-parallel speed for a hand-written O(n·m) code-point loop, each distinct astral code point of
 * the two strings is mapped to one BMP code unit that occurs in neither string (private-use area first). The
 * mapping is a bijection on the characters present, so equal code points stay equal and different ones stay
 * different: the distance is exactly the code-point distance. Strings without surrogates (nearly all text)
 * skip the mapping after one native regex test.
 */
import { DocbenchError } from '../../errors.js';
import { lazyRequire } from '../../lazy.js';

// Loaded by the first distance, not with the scorers: it builds an Intl.Collator when it loads (CONTRIBUTING.md, Habits).
const levenshteinPackage = lazyRequire<typeof import('fast-levenshtein')>('fast-levenshtein');

/** Distance and the two lengths, all in code points. */
export interface CodePointDistance {
  distance: number;
  lengthA: number;
  lengthB: number;
}

const HAS_SURROGATE = /[\uD800-\uDFFF]/;

/** Levenshtein distance between `a` and `b` in code points (insert, delete, substitute: cost 1 each). */
export function levenshteinCodePoints(a: string, b: string): CodePointDistance {
  if (HAS_SURROGATE.test(a) || HAS_SURROGATE.test(b)) [a, b] = mapAstralToSingleUnits(a, b);
  return { distance: distanceOfUnits(a, b), lengthA: a.length, lengthB: b.length };
}

/**
 * Strips the common prefix and suffix (the distance does not change: an optimal alignment can always match
 * them) before the O(n·m/32) call; equal strings and pages that differ only in one place cost O(n).
 */
function distanceOfUnits(a: string, b: string): number {
  if (a === b) return 0;
  let start = 0;
  const shorter = Math.min(a.length, b.length);
  while (start < shorter && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  if (endA === start) return endB - start;
  if (endB === start) return endA - start;
  return levenshteinPackage().get(a.slice(start, endA), b.slice(start, endB));
}

/**
 * The distance of {@link levenshteinCodePoints} alone, for callers that already hold the lengths (ANLS*
 * computes them once per prepared leaf).
 */
export function countCodePointEdits(a: string, b: string): number {
  return levenshteinCodePoints(a, b).distance;
}

/** Length of `text` in code points (a surrogate pair is one; a lone surrogate is one). */
export function countCodePoints(text: string): number {
  if (!HAS_SURROGATE.test(text)) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) i++;
    count++;
  }
  return count;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}
function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Rewrites both strings so that every code point is one UTF-16 unit (see the file comment). */
function mapAstralToSingleUnits(a: string, b: string): [string, string] {
  const used = new Uint8Array(0x10000);
  for (const text of [a, b]) {
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(i + 1))) i++;
      else used[unit] = 1; // BMP characters and lone surrogates stand for themselves
    }
  }
  const assigned = new Map<number, number>();
  let candidate = 0xe000; // private-use area U+E000–U+F8FF first, then any unit left unused
  let wrapped = false;
  const nextFreeUnit = (): number => {
    for (;;) {
      if (!wrapped && candidate > 0xf8ff) {
        wrapped = true;
        candidate = 0;
      }
      if (wrapped && candidate > 0xffff) {
        throw new DocbenchError(
          'INPUT_INVALID',
          'levenshtein: more than 65,536 distinct characters in one pair of texts',
          {
            hint: 'The texts are not natural-language text; check what was passed to the scorer.',
          },
        );
      }
      const unit = candidate++;
      if (!used[unit]) return unit;
    }
  };
  const rewrite = (text: string): string => {
    const units = new Uint16Array(text.length);
    let length = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      const next = text.charCodeAt(i + 1);
      if (isHighSurrogate(unit) && isLowSurrogate(next)) {
        const codePoint = (unit - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000;
        let single = assigned.get(codePoint);
        if (single === undefined) {
          single = nextFreeUnit();
          assigned.set(codePoint, single);
        }
        units[length++] = single;
        i++;
      } else {
        units[length++] = unit;
      }
    }
    return stringFromUnits(units.subarray(0, length));
  };
  return [rewrite(a), rewrite(b)];
}

/** String.fromCharCode in chunks (argument-count limits); TextDecoder would replace lone surrogates. */
function stringFromUnits(units: Uint16Array): string {
  const CHUNK = 8192;
  let out = '';
  for (let i = 0; i < units.length; i += CHUNK) {
    out += String.fromCharCode(...units.subarray(i, i + CHUNK));
  }
  return out;
}
