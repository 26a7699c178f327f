/**
 * Ordered tree edit distance, Zhang & Shasha (1989), with caller-supplied costs.
 *
 * Hand-written because no maintained, typed npm package offers it: `edit-distance` (the only candidate) ships
 * no types, computes a full alignment we do not need, and has seen no code change in years; APTED has no
 * JavaScript port. For tables (depth 2 below the root) Zhang–Shasha is as fast as APTED would be: the work is
 * Σ over key-root pairs of the product of their subtree sizes, about 9·|T1|·|T2| here.
 * Checked in test/score/tables.test.ts against a direct recursive forest-distance definition.
 */

/** A node of an ordered, labelled tree. */
export interface OrderedTree<T> {
  label: T;
  children: readonly OrderedTree<T>[];
}

/** Costs of the three edit operations. Each must be ≥ 0; `rename(x, x)` should be 0. */
export interface TreeEditCosts<T> {
  insert(label: T): number;
  remove(label: T): number;
  rename(from: T, to: T): number;
}

interface PostOrder<T> {
  labels: T[];
  /** leftmost[i]: post-order index of the leftmost leaf of the subtree rooted at i. */
  leftmost: number[];
  keyRoots: number[];
}

function indexPostOrder<T>(root: OrderedTree<T>): PostOrder<T> {
  const labels: T[] = [];
  const leftmost: number[] = [];
  // Iterative post-order walk: tables can have thousands of cells, recursion depth is not the risk but
  // keeping one code path for any tree shape is simpler to trust.
  const stack: { node: OrderedTree<T>; next: number; leftmost: number }[] = [{ node: root, next: 0, leftmost: -1 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.node.children.length) {
      stack.push({ node: top.node.children[top.next++]!, next: 0, leftmost: -1 });
      continue;
    }
    stack.pop();
    const index = labels.length;
    labels.push(top.node.label);
    const left = top.node.children.length === 0 ? index : top.leftmost;
    leftmost.push(left);
    const parent = stack[stack.length - 1];
    if (parent && parent.next === 1) parent.leftmost = left; // first child finished: parent's leftmost leaf
  }
  // A key root is a node whose leftmost leaf is shared with no later (higher) node: the root, and every
  // node that has a left sibling.
  const seen = new Set<number>();
  const keyRoots: number[] = [];
  for (let i = labels.length - 1; i >= 0; i--) {
    if (!seen.has(leftmost[i]!)) {
      seen.add(leftmost[i]!);
      keyRoots.push(i);
    }
  }
  keyRoots.reverse();
  return { labels, leftmost, keyRoots };
}

/** The minimum total cost of edits turning tree `a` into tree `b`. */
export function computeTreeEditDistance<T>(a: OrderedTree<T>, b: OrderedTree<T>, costs: TreeEditCosts<T>): number {
  const A = indexPostOrder(a);
  const B = indexPostOrder(b);
  const n = A.labels.length;
  const m = B.labels.length;
  // Typed arrays and explicit index arithmetic in the hot loop (O(Σ key-root subtree size products)): a
  // closure or a boxed array access per step made it several times slower on large tables.
  const leftA = Int32Array.from(A.leftmost);
  const leftB = Int32Array.from(B.leftmost);
  const removeCost = Float64Array.from(A.labels, (label) => costs.remove(label));
  const insertCost = Float64Array.from(B.labels, (label) => costs.insert(label));
  const treeDistance = new Float64Array(n * m);
  // Forest distances of the current key-root pair, packed into the pair's own (i − li + 2) × (j − lj + 2)
  // block: fd[(x − li + 1)·w + (y − lj + 1)] is the distance between the forests A[li..x] and B[lj..y], and
  // row / column 0 is the empty forest. Packing matters: a tall subtree against a leaf would otherwise
  // stride across a (n+1)·(m+1) matrix and miss the cache on every step.
  const fd = new Float64Array((n + 1) * (m + 1));

  for (const i of A.keyRoots) {
    const li = leftA[i]!;
    for (const j of B.keyRoots) {
      const lj = leftB[j]!;
      const w = j - lj + 2;
      fd[0] = 0;
      for (let x = li; x <= i; x++) fd[(x - li + 1) * w] = fd[(x - li) * w]! + removeCost[x]!;
      for (let y = lj; y <= j; y++) fd[y - lj + 1] = fd[y - lj]! + insertCost[y]!;
      for (let x = li; x <= i; x++) {
        const lx = leftA[x]!;
        const row = (x - li + 1) * w;
        const previousRow = row - w;
        const subtreeRow = (lx - li) * w;
        const removeX = removeCost[x]!;
        const distanceRow = x * m;
        for (let y = lj; y <= j; y++) {
          const column = y - lj + 1;
          const viaRemove = fd[previousRow + column]! + removeX;
          const viaInsert = fd[row + column - 1]! + insertCost[y]!;
          let best = Math.min(viaRemove, viaInsert);
          const ly = leftB[y]!;
          if (lx === li && ly === lj) {
            // Both forests are whole trees: the classic three-way choice, which also fills treeDistance.
            const viaRename = fd[previousRow + column - 1]! + costs.rename(A.labels[x]!, B.labels[y]!);
            if (viaRename < best) best = viaRename;
            treeDistance[distanceRow + y] = best;
          } else {
            const viaSubtrees = fd[subtreeRow + (ly - lj)]! + treeDistance[distanceRow + y]!;
            if (viaSubtrees < best) best = viaSubtrees;
          }
          fd[row + column] = best;
        }
      }
    }
  }
  return treeDistance[(n - 1) * m + (m - 1)]!;
}
