/**
 * Wilcoxon signed-rank test on paired differences (docs/metrics/comparison.md). Conventions, as documented in
 * docs/metrics/comparison.md:
 * - zero differences (|d| < 1e-12) are dropped — Wilcoxon's original convention (scipy `zero_method="wilcox"`);
 * - tied |d| (equal within a relative 1e-9, so float noise does not split ties) get their average rank;
 * - n ≤ 25 non-zero differences: exact distribution of W+ given the (possibly tied) ranks, by enumeration;
 * - n > 25: normal approximation with tie-corrected variance and a continuity correction of ½.
 */
import { checkUnit } from '../shared/check-metric.js';
import { twoSidedNormalP } from './normal.js';

/** Above this many non-zero differences the normal approximation is used. */
export const WILCOXON_EXACT_MAX_N = 25;

/** The outcome of a Wilcoxon signed-rank test. */
export interface WilcoxonResult {
  /** Non-zero differences ranked. */
  n: number;
  /** Differences dropped as zero. */
  zeros: number;
  /** Sum of ranks of positive differences. */
  wPlus: number;
  /** Sum of ranks of negative differences. */
  wMinus: number;
  /** Two-sided p-value. Lower = stronger evidence of a shift. 1 when n = 0. */
  p: number;
  method: 'exact' | 'normal' | 'none';
}

const ZERO = 1e-12;
const TIE_RELATIVE = 1e-9;

/** Average ranks (1-based) of `values` sorted ascending, plus the tie group sizes. */
function averageRanks(values: number[]): { ranks: Float64Array; order: Int32Array; tieSizes: number[] } {
  const order = Int32Array.from(values.keys()).sort((i, j) => values[i]! - values[j]!);
  const ranks = new Float64Array(values.length);
  const tieSizes: number[] = [];
  let start = 0;
  while (start < order.length) {
    let end = start + 1;
    const first = values[order[start]!]!;
    while (
      end < order.length &&
      values[order[end]!]! - first <= TIE_RELATIVE * Math.max(Math.abs(first), Math.abs(values[order[end]!]!))
    )
      end++;
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k]!] = rank;
    tieSizes.push(end - start);
    start = end;
  }
  return { ranks, order, tieSizes };
}

/**
 * Two-sided Wilcoxon signed-rank test of the differences `a − b`.
 * @param options.exactMaxN largest n for the exact distribution. @default 25
 */
export function wilcoxonSignedRank(
  differences: readonly number[],
  options: { exactMaxN?: number } = {},
): WilcoxonResult {
  const nonZero = differences.filter((d) => Math.abs(d) >= ZERO);
  const n = nonZero.length;
  const zeros = differences.length - n;
  if (n === 0) return { n, zeros, wPlus: 0, wMinus: 0, p: 1, method: 'none' };
  const { ranks, tieSizes } = averageRanks(nonZero.map(Math.abs));
  let wPlus = 0;
  for (let i = 0; i < n; i++) if (nonZero[i]! > 0) wPlus += ranks[i]!;
  const total = (n * (n + 1)) / 2;
  const wMinus = total - wPlus;
  const exact = n <= (options.exactMaxN ?? WILCOXON_EXACT_MAX_N);
  const p = exact ? exactP(ranks, wPlus) : normalP(n, wPlus, tieSizes);
  return { n, zeros, wPlus, wMinus, p: checkUnit('wilcoxon p', p), method: exact ? 'exact' : 'normal' };
}

/** Exact conditional null distribution of W+: each rank positive or negative with probability ½. */
function exactP(ranks: Float64Array, wPlus: number): number {
  // Average ranks are multiples of ½: count subsets over doubled ranks, which are integers.
  const doubled = Array.from(ranks, (r) => Math.round(r * 2));
  const maxSum = doubled.reduce((s, r) => s + r, 0);
  let counts = new Float64Array(maxSum + 1);
  counts[0] = 1;
  for (const r of doubled) {
    const next = counts.slice();
    for (let s = 0; s + r <= maxSum; s++) if (counts[s]) next[s + r]! += counts[s]!;
    counts = next;
  }
  const observed = Math.round(wPlus * 2);
  let below = 0;
  let above = 0;
  let all = 0;
  for (let s = 0; s <= maxSum; s++) {
    all += counts[s]!;
    if (s <= observed) below += counts[s]!;
    if (s >= observed) above += counts[s]!;
  }
  return Math.min(1, (2 * Math.min(below, above)) / all);
}

function normalP(n: number, wPlus: number, tieSizes: number[]): number {
  const mean = (n * (n + 1)) / 4;
  const tieCorrection = tieSizes.reduce((s, t) => s + t ** 3 - t, 0) / 48;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieCorrection;
  if (variance <= 0) return 1;
  const z = Math.max(0, Math.abs(wPlus - mean) - 0.5) / Math.sqrt(variance);
  return twoSidedNormalP(z);
}
