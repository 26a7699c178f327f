/**
 * Maximum-weight one-to-one assignment (the Hungarian step of DocILE's line-item matching) on top of
 * munkres-js, which minimises cost: cost = max(weight) − weight, on a matrix padded to a square with weight 0
 * so that padding never beats a real pair.
 */
import computeMunkres from 'munkres-js';

/**
 * Pairs rows with columns so that the summed weight is maximal. Every row and column is used at most once;
 * with n rows and m columns, min(n, m) pairs come back (some may have weight 0 — the caller decides what an
 * empty pair means). Weights must be finite and ≥ 0.
 */
export function assignMaximum(weights: readonly (readonly number[])[], columns: number): [number, number][] {
  const rows = weights.length;
  if (rows === 0 || columns === 0) return [];
  const size = Math.max(rows, columns);
  let max = 0;
  for (const row of weights) for (const w of row) if (w > max) max = w;
  const cost: number[][] = [];
  for (let i = 0; i < size; i++) {
    const row = new Array<number>(size);
    const source = weights[i];
    for (let j = 0; j < size; j++) row[j] = max - (source && j < columns ? source[j]! : 0);
    cost.push(row);
  }
  return computeMunkres(cost).filter(([i, j]) => i < rows && j < columns);
}
