/**
 * Comparing two systems or two runs on the same documents (METRICS.md §5): Δ with a paired-bootstrap 95%
 * interval, per-document wins/losses/ties, sign test and Wilcoxon signed-rank.
 */
import { DocbenchError } from '../../errors.js';
import { DEFAULT_RESAMPLES, DEFAULT_SEED, pairedBootstrap, type ResampleStatistic } from './bootstrap.js';
import { checkMetric, checkUnit } from '../shared/check-metric.js';
import { classifyDelta, DEFAULT_TIE_TOLERANCE } from '../shared/paired-outcome.js';
import { signTest } from './sign-test.js';
import { wilcoxonSignedRank, type WilcoxonResult } from './wilcoxon.js';

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
      throw new DocbenchError('INPUT_INVALID', `compareSystems: document ${i} has a non-finite value (A ${value}, B ${b[i]})`);
    }
  });
}

/**
 * Compares paired per-document values of systems A and B (e.g. document F1 of each).
 * Direction: values are higher-is-better; delta > 0 and wins > losses favour A; lower p = stronger evidence.
 * Edge cases: identical inputs → delta 0, interval [0, 0], all ties, both p = 1.
 * @throws DocbenchError `INPUT_INVALID` for unequal lengths, no documents or non-finite values.
 */
export function compareSystems(a: readonly number[], b: readonly number[], options: CompareSystemsOptions = {}): SystemComparison {
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
  const meanDifference: ResampleStatistic = (indices) => {
    let sum = 0;
    for (let k = 0; k < indices.length; k++) sum += differences[indices[k]!]!;
    return sum / indices.length;
  };
  const boot = pairedBootstrap(n, options.statistic ?? meanDifference, {
    seed: options.seed ?? DEFAULT_SEED,
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
  });
  const wilcoxon = wilcoxonSignedRank(Array.from(differences));
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
    tieTolerance,
  };
}

/** Per-document extraction counts, as in `ExtractionScore`. */
export interface CountsLike {
  tp: number;
  fp: number;
  fn: number;
}

/**
 * A resample statistic: micro F1 of A minus micro F1 of B, from counts summed over the drawn documents
 * (micro F1 = 2Σtp / (2Σtp + Σfp + Σfn); 1 when all sums are 0). Counts are copied into typed arrays once.
 */
export function createMicroF1Delta(a: readonly CountsLike[], b: readonly CountsLike[]): ResampleStatistic {
  if (a.length !== b.length) throw new DocbenchError('INPUT_INVALID', `createMicroF1Delta: ${a.length} documents for A but ${b.length} for B`);
  const pack = (rows: readonly CountsLike[]) => {
    const packed = new Float64Array(rows.length * 3);
    rows.forEach((row, i) => packed.set([row.tp, row.fp, row.fn], i * 3));
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
    return tp + errors === 0 ? 1 : (2 * tp) / (2 * tp + errors);
  };
  return (indices) => microF1(countsA, indices) - microF1(countsB, indices);
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

/** Pairs two id → value maps by document id (METRICS.md §5 "Pair by document id"). */
export function pairByDocumentId(a: ReadonlyMap<string, number> | Record<string, number>, b: ReadonlyMap<string, number> | Record<string, number>): PairedValues {
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
