/**
 * Typing for munkres-js 1.2 (the package ships none). Shared by every scorer that needs a one-to-one
 * assignment (line items, regions, tables).
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
