/**
 * Reading order of a page's predicted regions (docs/metrics/regions.md "Reading order"): docling-eval's
 * normalised average relative distance (ARD) over the regions matched to a truth region. The truth's order is
 * the order of its `bounding_boxes`, the prediction's the order of its own; each matched region's place in
 * the one is compared with its place in the other. Higher is better: 1 = the truth's order.
 */
import { checkUnit } from '../shared/check-metric.js';

/** One page: the matched truth regions in truth order, and the same regions in the order they were predicted. */
export interface PageReadingOrder {
  page: number;
  /** Indices of the matched truth boxes, ascending (the truth's order). */
  truth: number[];
  /** The same indices, in the order of the predicted boxes matched with them. */
  predicted: number[];
  /** Normalised ARD of the page. */
  ard: number;
}

/**
 * docling-eval's normalised ARD: with n regions and `predictedRanks[k]` the place (0-based) among the predicted
 * regions of the region the truth puts at place k, ARD = Σ |predictedRanks[k] − k| / n, normalised as
 * 1 − ARD / n. The same order gives 1; the reversed order the lowest value, 1 − ⌊n²/2⌋ / n² (0.5 for an even n).
 * No regions (0/0) fails the range check (SCORE_INVALID): callers score only pages with matches.
 */
export function normalizedArd(predictedRanks: readonly number[]): number {
  const n = predictedRanks.length;
  let distance = 0;
  for (let k = 0; k < n; k++) distance += Math.abs(predictedRanks[k]! - k);
  return checkUnit('reading order ARD', 1 - distance / (n * n));
}

/**
 * The reading order of one page from its matched pairs (truth box index, predicted box index); null when
 * nothing was matched, since there is no order to compare.
 */
export function pageReadingOrder(
  page: number,
  pairs: readonly { truthIndex: number; predictedIndex: number }[],
): PageReadingOrder | null {
  if (pairs.length === 0) return null;
  const byTruth = [...pairs].sort((a, b) => a.truthIndex - b.truthIndex);
  const byPrediction = [...pairs].sort((a, b) => a.predictedIndex - b.predictedIndex);
  const predictedRank = new Map(byPrediction.map((pair, rank) => [pair.truthIndex, rank]));
  return {
    page,
    truth: byTruth.map((pair) => pair.truthIndex),
    predicted: byPrediction.map((pair) => pair.truthIndex),
    ard: normalizedArd(byTruth.map((pair) => predictedRank.get(pair.truthIndex)!)),
  };
}
