/**
 * OmniDocBench's fuzzy substring test (its `sub_gt_fuzzy_matching` / `sub_pred_fuzzy_matching`): the least
 * Levenshtein distance between the short string and any window of the long string of the same length,
 * divided by the short string's length. npm's fuzzy-search packages (fuse.js's Bitap scores, partial-ratio
 * ports) define the distance otherwise — windows of any length, similarity ratios — and would move
 * OmniDocBench's thresholds, so it is written here. The callers only ask whether that least distance is
 * under (or at most) a threshold, so the windows stop at the first that passes, and a semi-global alignment
 * (the short string against any substring of the long one, never more than any window) rules a pair out in
 * one O(n·m) pass first.
 */
import { levenshteinCodePoints } from '../shared/code-point-levenshtein.js';

/** Least edit distance between `short` and any substring of `long` (code points). */
function semiGlobalDistance(short: readonly string[], long: readonly string[]): number {
  let previous = new Uint32Array(long.length + 1); // row 0: starting anywhere in `long` is free
  let current = new Uint32Array(long.length + 1);
  for (let i = 1; i <= short.length; i += 1) {
    current[0] = i;
    const s = short[i - 1];
    for (let j = 1; j <= long.length; j += 1) {
      const substitute = previous[j - 1]! + (s === long[j - 1] ? 0 : 1);
      current[j] = Math.min(substitute, previous[j]! + 1, current[j - 1]! + 1);
    }
    [previous, current] = [current, previous];
  }
  let best = Number.POSITIVE_INFINITY;
  for (const value of previous) best = Math.min(best, value);
  return best;
}

/**
 * Whether some window of `long` as long as `short` is within `limit` of it (distance ÷ |short|, below
 * `limit`, or at most `limit` when `inclusive`). False when `short` is empty or longer than `long`.
 */
export function hasCloseWindow(long: string, short: string, limit: number, inclusive: boolean): boolean {
  const longPoints = Array.from(long);
  const shortPoints = Array.from(short);
  const width = shortPoints.length;
  if (width === 0 || width > longPoints.length) return false;
  const passes = (distance: number): boolean => (inclusive ? distance / width <= limit : distance / width < limit);
  if (!passes(semiGlobalDistance(shortPoints, longPoints))) return false;
  for (let start = 0; start + width <= longPoints.length; start += 1) {
    const window = longPoints.slice(start, start + width).join('');
    if (passes(levenshteinCodePoints(window, short).distance)) return true;
  }
  return false;
}
