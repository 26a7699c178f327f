/** Risk–coverage curve and the auto-accept threshold (docs/metrics/calibration.md). */
import { checkUnit } from '../shared/check-metric.js';
import type { Sample } from './reliability.js';
import type { AutoAccept, RiskCoveragePoint } from './types.js';

/**
 * One point per distinct confidence, from the highest down: accepting every document with confidence ≥ t.
 * Documents with equal confidence are accepted together, since no threshold can separate them.
 */
export function riskCoverageCurve(samples: readonly Sample[]): RiskCoveragePoint[] {
  const sorted = [...samples].sort((a, b) => b.percent - a.percent);
  const points: RiskCoveragePoint[] = [];
  let correct = 0;
  for (let k = 0; k < sorted.length; k++) {
    correct += sorted[k]!.y;
    if (k + 1 < sorted.length && sorted[k + 1]!.percent === sorted[k]!.percent) continue;
    const accepted = k + 1;
    const accuracy = checkUnit('risk-coverage accuracy', Math.min(1, correct / accepted));
    points.push({
      threshold: sorted[k]!.percent,
      accepted,
      coverage: checkUnit('coverage', accepted / sorted.length),
      accuracy,
      risk: 1 - accuracy,
    });
  }
  return points;
}

/**
 * The lowest threshold t such that the documents with confidence ≥ t have mean correctness ≥ target, and the
 * share they make up. Accuracy need not fall monotonically as t drops, so every point is checked.
 * null when no threshold reaches the target. Higher coverage at the target is better.
 */
export function findAutoAccept(curve: readonly RiskCoveragePoint[], target: number): AutoAccept | null {
  let best: RiskCoveragePoint | null = null;
  // A tiny slack keeps 19/20 = 0.95 from failing a 0.95 target on float noise.
  for (const point of curve) if (point.accuracy >= target - 1e-12) best = point;
  return best ? { ...best, target } : null;
}
