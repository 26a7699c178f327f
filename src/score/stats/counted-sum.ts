/**
 * Σ multiplicities[i] · values[i] over a bootstrap resample, for integer per-document values (TP and FP + FN
 * of a field path, a difference of exact matches). Most documents share one value (a scalar field is right
 * once) or the value of the other run (two runs agree on most documents), so the column is stored as that base
 * plus the sparse deviations from it, and a resample costs the deviations rather than n. Integer sums below
 * 2^53 are exact in any order, so the result is the same number a draw-by-draw sum gives.
 */

/** Largest n · max|value| for which every partial sum below stays exact (with room for the reference sum). */
const EXACT_LIMIT = Number.MAX_SAFE_INTEGER / 4;

/** Sum over a resample: `multiplicities` must add up to the column's length, as a bootstrap's do. */
export type CountedSum = (multiplicities: Uint32Array, referenceSum: number) => number;

/**
 * The sum over a resample from its multiplicities; `referenceSum` is the same resample's sum of `reference`,
 * when one was given. Returns null when the values are not integers small enough for exact sums.
 * @param reference another column of the same length (the other run's counts): deviations are taken from it
 *   when there are fewer than deviations from the most common value.
 */
export function createCountedSum(values: Float64Array, reference?: Float64Array): CountedSum | null {
  const n = values.length;
  let largest = 0;
  const frequency = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const value = values[i]!;
    if (!Number.isInteger(value)) return null;
    largest = Math.max(largest, Math.abs(value));
    frequency.set(value, (frequency.get(value) ?? 0) + 1);
  }
  if (reference) {
    if (reference.length !== n) return null;
    for (const value of reference) {
      if (!Number.isInteger(value)) return null;
      largest = Math.max(largest, Math.abs(value));
    }
  }
  if (n * largest * 2 > EXACT_LIMIT) return null;
  let mode = 0;
  let modeCount = -1;
  for (const [value, count] of frequency) {
    if (count > modeCount) {
      mode = value;
      modeCount = count;
    }
  }
  let fromReference = 0;
  if (reference) for (let i = 0; i < n; i++) if (values[i] !== reference[i]) fromReference++;
  const useReference = reference !== undefined && fromReference < n - modeCount;
  const base = useReference ? reference : null;
  const count = useReference ? fromReference : n - modeCount;
  const positions = new Uint32Array(count);
  const deltas = new Float64Array(count);
  let j = 0;
  for (let i = 0; i < n; i++) {
    const delta = values[i]! - (base ? base[i]! : mode);
    if (delta === 0) continue;
    positions[j] = i;
    deltas[j++] = delta;
  }
  const offset = useReference ? 0 : mode * n;
  const grouped = groupByDelta(positions, deltas);
  if (grouped) {
    const { order, values, ends } = grouped;
    return (multiplicities, referenceSum) => {
      let sum = useReference ? referenceSum : offset;
      let start = 0;
      for (let g = 0; g < values.length; g++) {
        sum += values[g]! * sumAt(multiplicities, order, start, ends[g]!);
        start = ends[g]!;
      }
      return sum;
    };
  }
  return (multiplicities, referenceSum) =>
    (useReference ? referenceSum : offset) + sumDeviations(multiplicities, positions, deltas);
}

/** Few distinct deltas (a field is wrong by one FP or one FN): more than this many per group pays off. */
const MIN_GROUP_SIZE = 8;

/**
 * The deviations grouped by delta — positions of each delta in a run, ascending — when there are few distinct
 * deltas: then Σ m[i] · delta is Σ_delta delta · Σ m[i], one load per deviation and no multiply.
 */
function groupByDelta(
  positions: Uint32Array,
  deltas: Float64Array,
): { order: Uint32Array; values: Float64Array; ends: Uint32Array } | null {
  const byDelta = new Map<number, number[]>();
  for (let k = 0; k < positions.length; k++) {
    const list = byDelta.get(deltas[k]!);
    if (list) list.push(positions[k]!);
    else byDelta.set(deltas[k]!, [positions[k]!]);
    if (byDelta.size * MIN_GROUP_SIZE > positions.length) return null;
  }
  const order = new Uint32Array(positions.length);
  const values = new Float64Array(byDelta.size);
  const ends = new Uint32Array(byDelta.size);
  let g = 0;
  let at = 0;
  for (const [delta, list] of byDelta) {
    order.set(list, at);
    at += list.length;
    values[g] = delta;
    ends[g++] = at;
  }
  return { order, values, ends };
}

/** Σ multiplicities[order[k]] for k in [start, end), with four accumulators (exact: integers). */
function sumAt(multiplicities: Uint32Array, order: Uint32Array, start: number, end: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = start;
  for (; k + 3 < end; k += 4) {
    s0 += multiplicities[order[k]!]!;
    s1 += multiplicities[order[k + 1]!]!;
    s2 += multiplicities[order[k + 2]!]!;
    s3 += multiplicities[order[k + 3]!]!;
  }
  for (; k < end; k++) s0 += multiplicities[order[k]!]!;
  return s0 + s1 + (s2 + s3);
}

/**
 * Σ multiplicities[positions[k]] · deltas[k]. Four accumulators break the dependency chain of one running
 * sum (about twice as fast); integer sums are exact, so the grouping changes nothing.
 */
function sumDeviations(multiplicities: Uint32Array, positions: Uint32Array, deltas: Float64Array): number {
  const count = positions.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = 0;
  for (; k + 3 < count; k += 4) {
    s0 += multiplicities[positions[k]!]! * deltas[k]!;
    s1 += multiplicities[positions[k + 1]!]! * deltas[k + 1]!;
    s2 += multiplicities[positions[k + 2]!]! * deltas[k + 2]!;
    s3 += multiplicities[positions[k + 3]!]! * deltas[k + 3]!;
  }
  for (; k < count; k++) s0 += multiplicities[positions[k]!]! * deltas[k]!;
  return s0 + s1 + (s2 + s3);
}
