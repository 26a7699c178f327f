/** AUROC by the Mann–Whitney rank statistic, ties counted ½. */
import { checkUnit } from '../shared/check-metric.js';

/**
 * P(score of a random positive > score of a random negative) + ½·P(equal). O(N log N) via average ranks.
 * Higher is better (0.5 = no discrimination). null when there are no positives or no negatives.
 */
export function computeAuroc(scores: readonly number[], positive: readonly boolean[]): number | null {
  const n = scores.length;
  const order = [...scores.keys()].sort((i, j) => scores[i]! - scores[j]!);
  let rankSumPositive = 0;
  let positives = 0;
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && scores[order[end]!] === scores[order[start]!]) end++;
    const averageRank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) {
      if (positive[order[k]!]) {
        rankSumPositive += averageRank;
        positives++;
      }
    }
    start = end;
  }
  const negatives = n - positives;
  if (positives === 0 || negatives === 0) return null;
  const u = rankSumPositive - (positives * (positives + 1)) / 2;
  return checkUnit('auroc', u / (positives * negatives));
}
