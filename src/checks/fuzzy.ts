/**
 * Fuzzy matching as olmOCR-bench does it. Its checks use rapidfuzz's `fuzz.ratio` / `fuzz.partial_ratio` (the
 * Indel similarity of two strings, and its best value over the windows of the longer one) and fuzzysearch's
 * `find_near_matches` (substrings within a Levenshtein distance). No npm package computes these the same way
 * (fuzzball follows fuzzywuzzy's difflib blocks, whose partial ratio differs), so they are written here, over
 * code points, with the same float operations so that a figure on a threshold decides the same (docs/checks.md).
 */
import { codePoints } from './text.js';

/**
 * Longest common subsequence length of `a` and each string fed to it, bit-parallel over `a` (Hyyrö's
 * algorithm): one pass over `b` of ⌈|a|/32⌉ word operations per character.
 */
class LcsPattern {
  private readonly words: number;
  private readonly masks = new Map<string, Uint32Array>();
  private readonly empty: Uint32Array;
  private readonly v: Uint32Array;
  /** The text's masks by position (see `bind`), so that a window's alignment looks nothing up. */
  private at: Uint32Array[] = [];
  /** With one word: the same as plain numbers. */
  private at1: Uint32Array = new Uint32Array(0);

  constructor(a: readonly string[]) {
    this.words = Math.max(1, Math.ceil(a.length / 32));
    this.empty = new Uint32Array(this.words);
    this.v = new Uint32Array(this.words);
    a.forEach((ch, i) => {
      let mask = this.masks.get(ch);
      if (!mask) {
        mask = new Uint32Array(this.words);
        this.masks.set(ch, mask);
      }
      mask[i >>> 5] = (mask[i >>> 5] as number) | (1 << (i & 31));
    });
  }

  has(ch: string): boolean {
    return this.masks.has(ch);
  }

  /** Looks up the masks of every character of the text the windows are taken from, once. */
  bind(b: readonly string[]): void {
    this.at = b.map((ch) => this.masks.get(ch) ?? this.empty);
    if (this.words === 1) this.at1 = Uint32Array.from(this.at, (m) => m[0] as number);
  }

  /** LCS of the pattern and `b[from, to)` of the bound text. */
  lcs(from: number, to: number): number {
    if (this.words === 1) {
      const at = this.at1;
      let v = 0xffffffff;
      for (let j = from; j < to; j++) {
        const u = v & (at[j] as number);
        v = ((v + u) | (v - u)) >>> 0;
      }
      return popcount(~v >>> 0);
    }
    const v = this.v;
    v.fill(0xffffffff);
    for (let j = from; j < to; j++) {
      const m = this.at[j] as Uint32Array;
      let carry = 0;
      for (let w = 0; w < this.words; w++) {
        const vw = v[w] as number;
        const u = vw & (m[w] as number);
        // v = (v + u) | (v - u), with the addition's carry running across words
        const sum = vw + u + carry;
        carry = sum > 0xffffffff ? 1 : 0;
        v[w] = (sum >>> 0) | ((vw - u) >>> 0);
      }
    }
    // bits beyond the pattern's length start as 1 and only ever see zero masks, so they stay 1: not counted
    let lcs = 0;
    for (let w = 0; w < this.words; w++) lcs += popcount(~(v[w] as number) >>> 0);
    return lcs;
  }
}

function popcount(x: number): number {
  let n = x - ((x >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** rapidfuzz's normalised Indel similarity for lengths and an LCS: 1 − (|a| + |b| − 2·lcs) / (|a| + |b|). */
function indelSimilarity(lenA: number, lenB: number, lcs: number): number {
  const total = lenA + lenB;
  if (total === 0) return 1;
  return 1 - (total - 2 * lcs) / total;
}

/** `fuzz.ratio(a, b) / 100`. */
export function ratio(a: string, b: string): number {
  const ca = codePoints(a);
  const cb = codePoints(b);
  if (ca.length === 0 && cb.length === 0) return (1 * 100) / 100;
  let lcs = 0;
  if (ca.length > 0) {
    const pattern = new LcsPattern(ca);
    pattern.bind(cb);
    lcs = pattern.lcs(0, cb.length);
  }
  return (indelSimilarity(ca.length, cb.length, lcs) * 100) / 100;
}

/** `fuzz.partial_ratio(a, b) / 100`: the best ratio of the shorter string against the longer one's windows. */
export function partialRatio(a: string, b: string): number {
  const ca = codePoints(a);
  const cb = codePoints(b);
  if (ca.length === 0 && cb.length === 0) return 1;
  const [shorter, longer] = ca.length <= cb.length ? [ca, cb] : [cb, ca];
  // an exact occurrence is a window of ratio 1, the best there is (and the common case of a passing check)
  if (shorter.length > 0 && (ca.length <= cb.length ? b : a).includes(shorter.join(''))) return 1;
  let best = bestWindow(shorter, longer, 0);
  if (best !== 1 && ca.length === cb.length) best = Math.max(best, bestWindow(longer, shorter, best));
  return (best * 100) / 100;
}

/**
 * rapidfuzz's partial-ratio search (`_partial_ratio_impl`) for |s| ≤ |t|: prefixes of `t` shorter than `s`,
 * then every full window, then the suffixes, each considered only where the character entering it occurs in
 * `s`; a window's score replaces the best only when strictly greater. A window whose character counts bound
 * its LCS at or below the best cannot replace it and is skipped without aligning it.
 */
function bestWindow(s: readonly string[], t: readonly string[], floor: number): number {
  const m = s.length;
  const n = t.length;
  if (m === 0) return 0;
  const pattern = new LcsPattern(s);
  pattern.bind(t);
  let best = floor;
  const consider = (from: number, to: number): boolean => {
    const score = indelSimilarity(m, to - from, pattern.lcs(from, to));
    if (score > best) best = score;
    return best === 1;
  };
  for (let i = 1; i < m; i++) {
    if (pattern.has(t[i - 1] as string) && consider(0, i)) return 1;
  }
  const need = new Map<string, number>();
  for (const ch of s) need.set(ch, (need.get(ch) ?? 0) + 1);
  const have = new Map<string, number>();
  let common = 0;
  const add = (ch: string, delta: number): void => {
    const before = have.get(ch) ?? 0;
    const after = before + delta;
    have.set(ch, after);
    const cap = need.get(ch) ?? 0;
    common += Math.min(after, cap) - Math.min(before, cap);
  };
  for (let j = 0; j < Math.min(m, n); j++) add(t[j] as string, 1);
  for (let i = 0; i < n - m; i++) {
    if (i > 0) {
      add(t[i - 1] as string, -1);
      add(t[i + m - 1] as string, 1);
    }
    if (!pattern.has(t[i + m - 1] as string)) continue;
    if (indelSimilarity(m, m, common) <= best) continue;
    if (consider(i, i + m)) return 1;
  }
  for (let i = Math.max(0, n - m); i < n; i++) {
    if (pattern.has(t[i] as string) && consider(i, n)) return 1;
  }
  return best;
}

/** One near match: where it starts (code points) and its Levenshtein distance. */
export interface NearMatch {
  start: number;
  dist: number;
}

/**
 * Where `needle` occurs in `haystack` within Levenshtein distance `maxDist`, as fuzzysearch's
 * `find_near_matches` reports it: with no distance allowed, every exact occurrence (overlapping ones too);
 * otherwise each group of overlapping near matches counts once, at its closest one (the first on a tie).
 */
export function findNearMatches(needle: string, haystack: string, maxDist: number): NearMatch[] {
  const p = codePoints(needle);
  const t = codePoints(haystack);
  const m = p.length;
  if (m === 0) return [];
  if (maxDist === 0) {
    const matches: NearMatch[] = [];
    outer: for (let i = 0; i + m <= t.length; i++) {
      for (let k = 0; k < m; k++) if (t[i + k] !== p[k]) continue outer;
      matches.push({ start: i, dist: 0 });
    }
    return matches;
  }
  // Sellers' dynamic programme over the reversed strings: best[i] is the least distance of a match starting at i
  const best = new Array<number>(t.length).fill(Number.POSITIVE_INFINITY);
  const col = new Array<number>(m + 1);
  for (let k = 0; k <= m; k++) col[k] = k;
  const matchEnd = new Array<number>(t.length).fill(0); // end (exclusive) of the closest match starting at i
  const endOf = new Array<number>(m + 1);
  for (let k = 0; k <= m; k++) endOf[k] = t.length;
  for (let i = t.length - 1; i >= 0; i--) {
    let diag = 0;
    let diagEnd = i + 1; // the empty match just after t[i]
    col[0] = 0;
    endOf[0] = i; // the empty match at i
    for (let k = 1; k <= m; k++) {
      const up = col[k] as number; // without t[i]: skip a haystack character
      const left = (col[k - 1] as number) + 1; // skip a needle character
      const sub = diag + (p[m - k] === t[i] ? 0 : 1);
      const upEnd = endOf[k] as number;
      diag = up;
      const prevDiagEnd = diagEnd;
      diagEnd = upEnd;
      let value = sub;
      let end = prevDiagEnd;
      if (up + 1 < value) {
        value = up + 1;
        end = upEnd;
      }
      if (left < value) {
        value = left;
        end = endOf[k - 1] as number;
      }
      col[k] = value;
      endOf[k] = end;
    }
    best[i] = col[m] as number;
    matchEnd[i] = endOf[m] as number;
  }
  const matches: NearMatch[] = [];
  let group: NearMatch | undefined;
  let groupEnd = -1;
  for (let i = 0; i < t.length; i++) {
    const dist = best[i] as number;
    if (dist > maxDist) continue;
    if (group && i < groupEnd) {
      if (dist < group.dist) group = { start: i, dist };
      groupEnd = Math.max(groupEnd, matchEnd[i] as number);
      continue;
    }
    if (group) matches.push(group);
    group = { start: i, dist };
    groupEnd = matchEnd[i] as number;
  }
  if (group) matches.push(group);
  return matches;
}
