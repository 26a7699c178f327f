/**
 * Typing for munkres-js 1.2 (the package ships none). munkres-js is a devDependency: the oracle that
 * test/score/assign.test.ts checks the scorers' own assignment solver (src/score/shared/assign.ts) against.
 */
declare module 'munkres-js' {
  /**
   * Minimum-cost assignment (Hungarian / Munkres). Rectangular matrices are padded with `padValue`
   * (default 0). Returns the chosen `[row, column]` pairs inside the original matrix. The matrix must have
   * at least one row.
   */
  function computeMunkres(costMatrix: number[][], options?: { padValue?: number }): [number, number][];
  export = computeMunkres;
}
