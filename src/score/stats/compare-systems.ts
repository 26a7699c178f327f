/**
 * Comparing two systems or two runs on the same documents (docs/metrics/comparison.md): Δ with a paired-bootstrap 95%
 * interval, per-document wins/losses/ties, sign test and Wilcoxon signed-rank.
 */
import { DocbenchError } from '../../errors.js';
import {
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  pairedBootstrap,
  type BootstrapResult,
  type CountedResampleStatistic,
  type ResampleStatistic,
} from './bootstrap.js';
import { pairedBootstrapMany } from './bootstrap-many.js';
import { createCountedSum } from './counted-sum.js';
import { createMeanStatistic } from './mean-statistic.js';
import { checkMetric, checkUnit } from '../shared/check-metric.js';
import { classifyDelta, DEFAULT_TIE_TOLERANCE } from '../shared/paired-outcome.js';
import { signTest } from './sign-test.js';
import { wilcoxonSignedRank, type WilcoxonResult } from './wilcoxon.js';
import { twoSidedNormalP } from './normal.js';
import { f1FromSums } from '../extraction/ratios.js';
import type { Counts } from '../extraction/types.js';

// Re-exported here: the library and the gate take the default tolerance from the comparison API.
export { DEFAULT_TIE_TOLERANCE };

export interface CompareSystemsOptions {
  /** Bootstrap seed. @default 1 */
  seed?: number;
  /** @default 10000 */
  resamples?: number;
  /** |a − b| ≤ tieTolerance is a tie. @default 0.005 */
  tieTolerance?: number;
  /**
   * The aggregate recomputed on every resample, given document indices; its value on all documents is `delta`.
   * @default mean(a[i] − b[i]) over the indices. Use `createMicroF1Delta` for micro F1 from summed counts.
   */
  statistic?: ResampleStatistic;
}

/** A paired comparison. Values are "higher is better": wins are documents where A beats B. */
export interface SystemComparison {
  n: number;
  meanA: number;
  meanB: number;
  /** The aggregate of A minus that of B (default: mean(a) − mean(b)). Positive = A better. */
  delta: number;
  /** Paired-bootstrap percentile interval of delta. */
  ci95: [number, number];
  standardError: number;
  wins: number;
  losses: number;
  ties: number;
  /** Exact two-sided sign test on wins vs losses (ties dropped). */
  pSign: number;
  /** Two-sided Wilcoxon signed-rank p (zero differences dropped). */
  pWilcoxon: number;
  wilcoxon: WilcoxonResult;
  seed: number;
  resamples: number;
  tieTolerance: number;
}

function validatePairs(a: readonly number[], b: readonly number[]): void {
  if (a.length !== b.length) {
    throw new DocbenchError('INPUT_INVALID', `compareSystems: A has ${a.length} values, B has ${b.length}`, {
      hint: 'pair the two runs by document id first (pairByDocumentId); a failed document scores 0, it is not dropped',
    });
  }
  if (a.length === 0) throw new DocbenchError('INPUT_INVALID', 'compareSystems: no documents to compare');
  a.forEach((value, i) => {
    if (!Number.isFinite(value) || !Number.isFinite(b[i]!)) {
      throw new DocbenchError(
        'INPUT_INVALID',
        `compareSystems: document ${i} has a non-finite value (A ${value}, B ${b[i]})`,
      );
    }
  });
}

/**
 * Compares paired per-document values of systems A and B (e.g. document F1 of each).
 * Direction: values are higher-is-better; delta > 0 and wins > losses favour A; lower p = stronger evidence.
 * Edge cases: identical inputs → delta 0, interval [0, 0], all ties, both p = 1.
 * @throws DocbenchError `INPUT_INVALID` for unequal lengths, no documents or non-finite values.
 */
export function compareSystems(
  a: readonly number[],
  b: readonly number[],
  options: CompareSystemsOptions = {},
): SystemComparison {
  const prepared = prepareComparison(a, b, options);
  const boot = pairedBootstrap(prepared.n, prepared.statistic, {
    seed: options.seed ?? DEFAULT_SEED,
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
  });
  return finishComparison(prepared, boot);
}

/** One comparison of `compareSystemsMany`: A's and B's paired values, and its own statistic and tie tolerance. */
export interface ComparisonRequest {
  a: readonly number[];
  b: readonly number[];
  /** @default 0.005 */
  tieTolerance?: number;
  /** @default mean(a[i] − b[i]) over the indices */
  statistic?: ResampleStatistic;
}

/**
 * Many comparisons with one seed and resample count: exactly `requests.map((q) => compareSystems(q.a, q.b,
 * { ...options, ...q }))`, with the bootstraps run together by `pairedBootstrapMany` (the resamples of each
 * document count are drawn once, for every comparison of that size).
 * @throws DocbenchError `INPUT_INVALID` as `compareSystems` does.
 */
export function compareSystemsMany(
  requests: readonly ComparisonRequest[],
  options: Pick<CompareSystemsOptions, 'seed' | 'resamples'> = {},
): SystemComparison[] {
  const prepared = requests.map((q) => prepareComparison(q.a, q.b, q));
  const boots = pairedBootstrapMany(
    prepared.map((p) => ({ n: p.n, statistic: p.statistic })),
    { seed: options.seed ?? DEFAULT_SEED, resamples: options.resamples ?? DEFAULT_RESAMPLES },
  );
  return prepared.map((p, i) => finishComparison(p, boots[i]!));
}

interface PreparedComparison {
  n: number;
  a: readonly number[];
  b: readonly number[];
  differences: Float64Array;
  wins: number;
  losses: number;
  tieTolerance: number;
  statistic: ResampleStatistic;
}

/** Everything of a comparison but the bootstrap: validation, paired differences, wins and losses. */
function prepareComparison(
  a: readonly number[],
  b: readonly number[],
  options: Pick<CompareSystemsOptions, 'tieTolerance' | 'statistic'>,
): PreparedComparison {
  validatePairs(a, b);
  const n = a.length;
  const tieTolerance = options.tieTolerance ?? DEFAULT_TIE_TOLERANCE;
  const differences = new Float64Array(n);
  let wins = 0;
  let losses = 0;
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    differences[i] = d;
    const outcome = classifyDelta(d, tieTolerance);
    if (outcome === 'win') wins++;
    else if (outcome === 'loss') losses++;
  }
  return {
    n,
    a,
    b,
    differences,
    wins,
    losses,
    tieTolerance,
    statistic: options.statistic ?? createMeanStatistic(differences),
  };
}

function finishComparison(p: PreparedComparison, boot: BootstrapResult): SystemComparison {
  const { n, a, b, wins, losses } = p;
  const wilcoxon = wilcoxonSignedRank(Array.from(p.differences));
  const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / n;
  return {
    n,
    meanA: checkMetric('mean A', mean(a)),
    meanB: checkMetric('mean B', mean(b)),
    delta: boot.estimate,
    ci95: boot.interval,
    standardError: boot.standardError,
    wins,
    losses,
    ties: n - wins - losses,
    pSign: checkUnit('sign test p', signTest(wins, losses)),
    pWilcoxon: wilcoxon.p,
    wilcoxon,
    seed: boot.seed,
    resamples: boot.resamples,
    tieTolerance: p.tieTolerance,
  };
}

/**
 * Two-sided p of Δ from the bootstrap: z = Δ / SE against the standard normal, floored at the smallest p that
 * an exact test of the paired outcomes could give: with k documents that differ (wins + losses), all k going
 * one way gives the sign test's 2 · 0.5^k. The normal approximation has no such limit — three documents that
 * all moved alike have SE ≈ 0 and p ≈ 0 — so without the floor a handful of documents could be called
 * significant; with it, fewer than 6 documents that differ never are at α = 0.05 (docs/metrics/comparison.md).
 * With no spread in the resamples (SE = 0): p = 1 when Δ = 0 (identical runs), else the floor.
 */
export function bootstrapP(
  comparison: Pick<SystemComparison, 'n' | 'delta' | 'standardError' | 'wins' | 'losses'>,
): number {
  if (comparison.n < 2) return 1;
  const floor = signTest(comparison.wins + comparison.losses, 0);
  if (comparison.standardError === 0) return Math.abs(comparison.delta) < 1e-12 ? 1 : floor;
  return Math.max(floor, twoSidedNormalP(comparison.delta / comparison.standardError));
}

/** Per-document extraction counts, as in `ExtractionScore`. */
export type CountsLike = Counts;

/**
 * A resample statistic: micro F1 of A minus micro F1 of B, from counts summed over the drawn documents
 * (micro F1 = 2Σtp / (2Σtp + Σfp + Σfn); 1 when all sums are 0). Counts are copied into typed arrays once.
 */
export function createMicroF1Delta(a: readonly CountsLike[], b: readonly CountsLike[]): ResampleStatistic {
  if (a.length !== b.length)
    throw new DocbenchError('INPUT_INVALID', `createMicroF1Delta: ${a.length} documents for A but ${b.length} for B`);
  const pack = (rows: readonly CountsLike[]) => {
    const packed = new Float64Array(rows.length * 3);
    rows.forEach((row, i) => {
      packed.set([row.tp, row.fp, row.fn], i * 3);
    });
    return packed;
  };
  const countsA = pack(a);
  const countsB = pack(b);
  const microF1 = (packed: Float64Array, indices: Uint32Array) => {
    let tp = 0;
    let errors = 0;
    for (let k = 0; k < indices.length; k++) {
      const base = indices[k]! * 3;
      tp += packed[base]!;
      errors += packed[base + 1]! + packed[base + 2]!;
    }
    return f1FromSums(tp, errors);
  };
  const statistic: ResampleStatistic = (indices) => microF1(countsA, indices) - microF1(countsB, indices);
  const counted = createCountedMicroF1Delta(a, b);
  return counted ? Object.assign(statistic, { fromMultiplicities: counted }) : statistic;
}

/**
 * The micro-F1 delta from multiplicities, for `pairedBootstrapMany`. Its sums are of integers, exact in any
 * order, so it returns what the index form does. TP and FP + FN are packed into one integer, tp + errors · 2^k
 * with 2^k above any resample's Σtp, so one sum gives both; B's column is stored as differences from A's when
 * that is sparser (two runs mostly agree document by document). Null when the counts are not non-negative
 * integers small enough for exact sums: then the index form is the only one.
 */
function createCountedMicroF1Delta(
  a: readonly CountsLike[],
  b: readonly CountsLike[],
): CountedResampleStatistic['fromMultiplicities'] | null {
  const n = a.length;
  const rows = [...a, ...b];
  if (
    !rows.every(
      (r) =>
        Number.isInteger(r.tp) &&
        Number.isInteger(r.fp) &&
        Number.isInteger(r.fn) &&
        r.tp >= 0 &&
        r.fp >= 0 &&
        r.fn >= 0,
    )
  )
    return null;
  let largestTp = 0;
  for (const row of rows) largestTp = Math.max(largestTp, row.tp);
  // 2^k > n · largest tp ≥ any resample's Σtp, so the packed sum splits back into Σtp and Σerrors exactly.
  const scale = 2 ** Math.ceil(Math.log2(n * largestTp + 1) + 1);
  const pack = (rows: readonly CountsLike[]) => Float64Array.from(rows, (r) => r.tp + (r.fp + r.fn) * scale);
  const packedA = pack(a);
  const sumA = createCountedSum(packedA);
  const sumB = createCountedSum(pack(b), packedA);
  if (!sumA || !sumB) return null;
  return (multiplicities) => {
    const totalA = sumA(multiplicities, 0);
    const totalB = sumB(multiplicities, totalA);
    const errorsA = Math.floor(totalA / scale);
    const errorsB = Math.floor(totalB / scale);
    return f1FromSums(totalA - errorsA * scale, errorsA) - f1FromSums(totalB - errorsB * scale, errorsB);
  };
}

/** Two runs' values paired by document id, in sorted id order (so a seeded bootstrap is reproducible). */
export interface PairedValues {
  ids: string[];
  a: number[];
  b: number[];
  /** Ids present in one run only: a data error to report, never silently dropped. */
  onlyInA: string[];
  onlyInB: string[];
}

/** Pairs two id → value maps by document id (docs/metrics/comparison.md "Pair by document id"). */
export function pairByDocumentId(
  a: ReadonlyMap<string, number> | Record<string, number>,
  b: ReadonlyMap<string, number> | Record<string, number>,
): PairedValues {
  const mapA = a instanceof Map ? a : new Map(Object.entries(a));
  const mapB = b instanceof Map ? b : new Map(Object.entries(b));
  const ids = [...mapA.keys()].filter((id) => mapB.has(id)).sort();
  return {
    ids,
    a: ids.map((id) => mapA.get(id)!),
    b: ids.map((id) => mapB.get(id)!),
    onlyInA: [...mapA.keys()].filter((id) => !mapB.has(id)).sort(),
    onlyInB: [...mapB.keys()].filter((id) => !mapA.has(id)).sort(),
  };
}
