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

/**
 * Pairs rows with columns so that the summed weight is maximal, for weights packed row-major in a typed array
 * (row i, column j at i·columns + j): what a scorer that fills its matrix in one pass hands over without building
 * nested arrays. Same pairs as `assignMaximum` on the same weights.
 */
export function assignMaximumPacked(weights: Float64Array, rows: number, columns: number): [number, number][] {
  return assignPacked(weights, rows, columns, -1);
}

function assign(matrix: readonly (readonly number[])[], columns: number, sign: 1 | -1): [number, number][] {
  const rows = matrix.length;
  const packed = new Float64Array(rows * columns);
  for (let i = 0; i < rows; i++) {
    const row = matrix[i]!;
    for (let j = 0; j < columns; j++) packed[i * columns + j] = row[j]!;
  }
  return assignPacked(packed, rows, columns, sign);
}

/** Minimises `sign × matrix`, transposing so that the solver below sees no more rows than columns. */
function assignPacked(matrix: Float64Array, rows: number, columns: number, sign: 1 | -1): [number, number][] {
  if (rows === 0 || columns === 0) return [];
  const transpose = rows > columns;
  const n = transpose ? columns : rows;
  const m = transpose ? rows : columns;
  const cost = new Float64Array(n * m);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++) {
      const c = sign * matrix[i * columns + j]!;
      if (transpose) cost[j * m + i] = c;
      else cost[i * m + j] = c;
    }
  }
  const rowToColumn = solveMinimumAssignment(cost, n, m);
  const pairs: [number, number][] = [];
  for (let i = 0; i < n; i++) pairs.push(transpose ? [rowToColumn[i]!, i] : [i, rowToColumn[i]!]);
  return transpose ? pairs.sort((a, b) => a[0] - b[0]) : pairs;
}

/**
 * Minimum-cost assignment of n rows into m ≥ n columns; returns the column of each row.
 *
 * Each scan visits only the columns not yet in the alternating tree (a list kept in column order, so ties go
 * to the lowest column as in the textbook loop), and subtracts the previous step's delta from their running
 * minimum as it reads it instead of in a second pass over all columns. Every value goes through the same
 * floating-point operations in the same order as in the two-pass formulation, so the pairs are identical,
 * ties included.
 */
function solveMinimumAssignment(cost: Float64Array, n: number, m: number): Int32Array {
  // 1-based arrays as in the textbook formulation; index 0 is the virtual start column.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const owner = new Int32Array(m + 1); // owner[j] = row assigned to column j (0 = none)
  const way = new Int32Array(m + 1);
  const minimum = new Float64Array(m + 1);
  const free = new Int32Array(m); // columns outside the tree, ascending
  const tree = new Int32Array(m + 1); // columns in the tree, in the order they joined
  for (let i = 1; i <= n; i++) {
    owner[0] = i;
    let column = 0;
    for (let j = 1; j <= m; j++) {
      minimum[j] = Infinity;
      free[j - 1] = j;
    }
    let freeCount = m;
    let treeSize = 0;
    // The delta of the previous step, still to be subtracted from the free columns' minimum (x − 0 is x).
    let pending = 0;
    do {
      tree[treeSize++] = column;
      const row = owner[column]!;
      const rowPotential = u[row]!;
      const base = (row - 1) * m - 1;
      let delta = Infinity;
      let next = 0;
      let kept = 0;
      for (let k = 0; k < freeCount; k++) {
        const j = free[k]!;
        if (j === column) continue; // joined the tree this step
        free[kept++] = j;
        let least = minimum[j]! - pending;
        const reduced = cost[base + j]! - rowPotential - v[j]!;
        if (reduced < least) {
          least = reduced;
          way[j] = column;
        }
        minimum[j] = least;
        if (least < delta) {
          delta = least;
          next = j;
        }
      }
      freeCount = kept;
      for (let k = 0; k < treeSize; k++) {
        const j = tree[k]!;
        u[owner[j]!]! += delta;
        v[j]! -= delta;
      }
      pending = delta;
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
