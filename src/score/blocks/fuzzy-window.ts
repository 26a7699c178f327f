/**
 * OmniDocBench's fuzzy substring test (its `sub_gt_fuzzy_matching` / `sub_pred_fuzzy_matching`): the least
 * Levenshtein distance between the short string and any window of the long string of the same length,
 * divided by the short string's length. npm's fuzzy-search packages (fuse.js's Bitap scores, partial-ratio
 * ports) define the distance otherwise — windows of any length, similarity ratios — and would move
 * OmniDocBench's thresholds, so it is written here. The callers only ask whether that least distance is
 * under (or at most) a threshold, so the windows stop at the first that passes, and a semi-global alignment
 * (the short string against any substring of the long one ending at each position, never more than the
 * window ending there) leaves only the windows that could pass, in one O(n·m) pass.
 */
import { levenshteinCodePoints } from '../shared/code-point-levenshtein.js';

/** For each end position j in `long`, the least edit distance between `short` and a substring ending at j. */
function semiGlobalDistances(short: readonly string[], long: readonly string[]): Uint32Array {
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
  return previous;
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
  // A window ending at j is never closer than the best substring ending at j: only those ends are tried.
  const bestEndingAt = semiGlobalDistances(shortPoints, longPoints);
  for (let end = width; end <= longPoints.length; end += 1) {
    if (!passes(bestEndingAt[end]!)) continue;
    const window = longPoints.slice(end - width, end).join('');
    if (passes(levenshteinCodePoints(window, short).distance)) return true;
  }
  return false;
}
