/**
 * One-to-one minimum-cost assignment (Hungarian / Munkres, via munkres-js) for the scorers that pair things:
 * regions on IoU, tables on TEDS.
 */
import computeMunkres from 'munkres-js';

/**
 * Pairs rows with columns to minimise the summed cost; returns `[row, column]` pairs (min(rows, columns) of
 * them). Costs are scaled to integers (micro-units) first: munkres-js subtracts and compares floats, and exact
 * integer arithmetic keeps its zero tests exact. Ties therefore resolve below 1e-6, which no score shows.
 */
export function assignPairs(costs: readonly (readonly number[])[]): [number, number][] {
  if (costs.length === 0 || costs[0]!.length === 0) return [];
  const scaled = costs.map((row) => row.map((cost) => Math.round(cost * 1e6)));
  return computeMunkres(scaled);
}
