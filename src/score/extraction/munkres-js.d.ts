/** munkres-js 1.2 ships no typings. It exports one CommonJS function that minimises total cost. */
declare module 'munkres-js' {
  /**
   * Returns the `[row, column]` pairs of a least-cost assignment. Rectangular matrices are padded with
   * `padValue` (default 0); the input is not modified. Throws on an empty matrix.
   */
  function computeMunkres(costMatrix: number[][], options?: { padValue?: number }): [number, number][];
  export = computeMunkres;
}
