/**
 * One-to-one assignment (Hungarian method), the one solver behind every scorer that pairs things: line items
 * and ANLS* lists (maximum weight), regions on IoU and tables on TEDS (minimum cost).
 *
 * Hand-written (shortest augmenting paths with potentials, Kuhn–Munkres as refined by Jonker & Volgenant;
 * O(n²·m) on typed arrays) instead of calling munkres-js: munkres-js rescans the whole matrix for a zero at
 * every step, which is O(n⁴) when many pairs tie — measured at about 1 s for 200 line items that differ in one
 * field, against a 50 ms target. munkres-js stays the oracle in test/score/assign.test.ts. Floating-point
 * costs need no rescaling here: the solver compares reduced costs with `<`, never tests them for zero.
 */

/**
 * Pairs rows with columns so that the summed cost is minimal. Every row and column is used at most once;
 * with n rows and m columns, min(n, m) `[row, column]` pairs come back, in row order. Costs must be finite.
 * @param columns the column count, needed when there are no rows. @default the length of the first row
 */
export function assignMinimum(
  costs: readonly (readonly number[])[],
  columns = costs[0]?.length ?? 0,
): [number, number][] {
  return assign(costs, columns, 1);
}

/**
 * Pairs rows with columns so that the summed weight is maximal. Every row and column is used at most once;
 * with n rows and m columns, min(n, m) pairs come back, in row order (some may have weight 0 — the caller
 * decides what an empty pair means). Weights must be finite.
 */
export function assignMaximum(weights: readonly (readonly number[])[], columns: number): [number, number][] {
  return assign(weights, columns, -1);
}

/** Minimises `sign × matrix`, transposing so that the solver below sees no more rows than columns. */
function assign(matrix: readonly (readonly number[])[], columns: number, sign: 1 | -1): [number, number][] {
  const rows = matrix.length;
  if (rows === 0 || columns === 0) return [];
  const transpose = rows > columns;
  const n = transpose ? columns : rows;
  const m = transpose ? rows : columns;
  const cost = new Float64Array(n * m);
  for (let i = 0; i < rows; i++) {
    const row = matrix[i]!;
    for (let j = 0; j < columns; j++) {
      const c = sign * row[j]!;
      if (transpose) cost[j * m + i] = c;
      else cost[i * m + j] = c;
    }
  }
  const rowToColumn = solveMinimumAssignment(cost, n, m);
  const pairs: [number, number][] = [];
  for (let i = 0; i < n; i++) pairs.push(transpose ? [rowToColumn[i]!, i] : [i, rowToColumn[i]!]);
  return transpose ? pairs.sort((a, b) => a[0] - b[0]) : pairs;
}

/** Minimum-cost assignment of n rows into m ≥ n columns; returns the column of each row. */
function solveMinimumAssignment(cost: Float64Array, n: number, m: number): Int32Array {
  // 1-based arrays as in the textbook formulation; index 0 is the virtual start column.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const owner = new Int32Array(m + 1); // owner[j] = row assigned to column j (0 = none)
  const way = new Int32Array(m + 1);
  const minimum = new Float64Array(m + 1);
  const used = new Uint8Array(m + 1);
  for (let i = 1; i <= n; i++) {
    owner[0] = i;
    let column = 0;
    minimum.fill(Infinity);
    used.fill(0);
    do {
      used[column] = 1;
      const row = owner[column]!;
      let delta = Infinity;
      let next = 0;
      const base = (row - 1) * m;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const reduced = cost[base + j - 1]! - u[row]! - v[j]!;
        if (reduced < minimum[j]!) {
          minimum[j] = reduced;
          way[j] = column;
        }
        if (minimum[j]! < delta) {
          delta = minimum[j]!;
          next = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[owner[j]!]! += delta;
          v[j]! -= delta;
        } else {
          minimum[j]! -= delta;
        }
      }
      column = next;
    } while (owner[column] !== 0);
    do {
      const previous = way[column]!;
      owner[column] = owner[previous]!;
      column = previous;
    } while (column !== 0);
  }
  const rowToColumn = new Int32Array(n);
  for (let j = 1; j <= m; j++) if (owner[j]! > 0) rowToColumn[owner[j]! - 1] = j - 1;
  return rowToColumn;
}
